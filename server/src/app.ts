import 'reflect-metadata';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { Logger, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppModule } from './app.module';
import { errorAnswerLanguageHook } from './auth/answer-language';
import { SessionService } from './auth/session.service';
import { BrandingService } from './branding/branding.service';
import { type EmbeddedSession, HtmlService } from './branding/html.service';
import { clearSessionCookie, readSessionCookie } from './auth/cookies';
import { brandFileHeaders, clientFileHeaders, COMPRESS_OPTIONS, keepIdentity } from './common/compression';
import { conditionalGet } from './common/conditional';
import { foreignOriginHook, jsonOnlyHook, securityHeadersHook } from './common/http-guards';
import type { AppConfig } from './config/config';
import { ensureSessionSecret } from './config/session-secret';
import type { Database } from './database/data-source';
import { TRPC_MAX_BODY_BYTES, TrpcService } from './api/trpc.module';
import { PortalMetrics } from './common/metrics';

/** Pages under it need no session (login, forgot and reset password): no session check for them. */
const PUBLIC_PAGE_PREFIX = '/auth/';

const LEVELS: LogLevel[] = ['error', 'warn', 'log', 'debug', 'verbose'];

/** Default brand assets (favicon, sharing image) shipped with the server. */
export function brandAssets(): string {
  return resolve(process.cwd(), 'server', 'assets', 'brand');
}

/** Where the browser app is served from: CLIENT_DIR if set, else the Vite build when present, else the placeholder. */
export function clientRoot(configured?: string): string {
  if (configured) return resolve(process.cwd(), configured);
  const candidates = [resolve(process.cwd(), 'dist', 'client'), resolve(process.cwd(), 'client', 'public')];
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? candidates[candidates.length - 1];
}

/** Fastify under Nest, with the limits and shutdown behaviour the portal needs. */
export function createFastifyAdapter(config: AppConfig): FastifyAdapter {
  return new FastifyAdapter({
    // A hop count, not `true`: trusting every X-Forwarded-For entry would let a client choose its
    // own address (and a fresh one for each login guess).
    trustProxy: config.TRUST_PROXY ? config.TRUST_PROXY_HOPS : false,
    // Fastify reads bodies before tRPC sees them, so this is the limit that answers 413.
    bodyLimit: TRPC_MAX_BODY_BYTES,
    // Live-event streams never end by themselves: a shutdown closes them instead of waiting forever.
    forceCloseConnections: true,
    // A batched tRPC GET names every procedure in one path segment ("a.getOne,b.getList,…"):
    // Fastify's default of 100 characters answered such batches 404.
    routerOptions: { maxParamLength: 5000 },
  });
}

/**
 * The `route` label of portal_http_request_duration_seconds: the tRPC procedure (`trpc:<path>`,
 * only a procedure the router has; `trpc:batch` for a batch of several, `trpc:unknown` for a name
 * it has not) or the matched route pattern (never the raw URL: no ids, no query strings);
 * `unmatched` when no route matched. A bounded set whatever the requests carry.
 */
export function routeLabel(req: FastifyRequest, isProcedure: (path: string) => boolean): string {
  const pattern = req.routeOptions?.url;
  if (!pattern) return 'unmatched';
  if (pattern === '/api/trpc/:path') {
    const path = (req.params as { path?: unknown } | undefined)?.path;
    if (typeof path !== 'string') return 'trpc:unknown';
    if (path.includes(',')) return 'trpc:batch';
    return isProcedure(path) ? `trpc:${path}` : 'trpc:unknown';
  }
  return pattern;
}

/** Times every answer into portal_http_request_duration_seconds (Fastify's own elapsed time). */
function requestTiming(metrics: PortalMetrics, isProcedure: (path: string) => boolean) {
  return (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    try {
      metrics.httpDuration.observe(
        { method: req.method, route: routeLabel(req, isProcedure), status_class: `${Math.floor(reply.statusCode / 100)}xx` },
        reply.elapsedTime / 1000,
      );
    } finally {
      done();
    }
  };
}

/**
 * The HTTP plumbing around the Nest modules: cookies, security headers, the foreign-origin
 * guard, static files, branded pages; then init. Shared by createApp and tests that build the
 * module themselves (with provider overrides).
 */
export async function configureApp(app: NestFastifyApplication, config: AppConfig): Promise<NestFastifyApplication> {
  await app.register(fastifyCookie);
  const fastify = app.getHttpAdapter().getInstance();
  // First, so every route (tRPC, controllers, pages, files) is timed.
  const trpc = app.get(TrpcService);
  const isProcedure = (path: string) => Object.prototype.hasOwnProperty.call(trpc.appRouter?._def.procedures ?? {}, path);
  fastify.addHook('onResponse', requestTiming(app.get(PortalMetrics), isProcedure));
  fastify.addHook('onRequest', securityHeadersHook);
  fastify.addHook('onRequest', foreignOriginHook(config.ALLOWED_ORIGINS.split(',')));
  fastify.addHook('onRequest', jsonOnlyHook);
  // REST error answers in the caller's language (tRPC's are translated by its error formatter).
  fastify.addHook('onSend', errorAnswerLanguageHook(app.get(SessionService)));
  // Before any route: the compression hook attaches to the routes registered after it
  // (docs/network.md). keepIdentity is a global onSend hook, so it runs before the plugin's.
  fastify.addHook('onSend', keepIdentity);
  await app.register(fastifyCompress, COMPRESS_OPTIONS);
  // The session check each second answers 304 while the context is unchanged.
  fastify.addHook(
    'onSend',
    conditionalGet((req) => req.routeOptions.url === '/api/auth/session'),
  );

  const root = clientRoot(config.CLIENT_DIR);
  // Built assets are sent as compressed at build time (.br/.gz beside each file); hashed names are
  // kept a year, the rest revalidated (clientFileHeaders).
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    index: false,
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: clientFileHeaders,
  });
  await app.register(fastifyStatic, { root: brandAssets(), prefix: '/brand/', decorateReply: false, cacheControl: false, setHeaders: brandFileHeaders });
  const html = app.get(HtmlService);
  const branding = app.get(BrandingService);
  const sessions = app.get(SessionService);
  html.setRoot(root, !config.isProduction);
  // Browser routes get index.html with the host's brand in the head; unknown /api paths stay 404 JSON.
  const page = async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.url === '/api' || req.url.startsWith('/api/')) {
      return reply.code(404).send({ code: 'NOT_FOUND', message: 'No such API path' });
    }
    const brand = await branding.forHost(req.headers.host, req.protocol);
    const pageUrl = new URL(req.url, brand.url === '/' ? 'http://localhost/' : brand.url).toString();
    // A shell page carries the session check's answer, so the browser starts without asking it
    // (one round trip less on a slow link); a failing cookie is deleted as the check would.
    let session: EmbeddedSession | undefined;
    if (!req.url.startsWith(PUBLIC_PAGE_PREFIX)) {
      const cookie = readSessionCookie(req);
      const check = await sessions.check(cookie);
      if (check.ok) session = { ok: true, context: check.payload.ctx };
      else {
        session = { ok: false, code: check.reason };
        if (cookie) clearSessionCookie(req, reply);
      }
    }
    return reply
      .header('cache-control', session?.ok ? 'private, no-cache' : 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html.render(brand, pageUrl, session));
  };
  fastify.get('/', page);
  fastify.get('/*', page);
  app.enableShutdownHooks();
  await app.init();
  Logger.log(`Serving the browser app from ${root}`, 'App');
  return app;
}

/**
 * Builds the whole application on an opened database (used by main.ts, tests and the bench).
 * NestJS on Fastify: on this 2-core machine Express 5 alone tops out near 8,500 trivial requests
 * per second where Fastify does over 60,000, and the session check runs every second per tab.
 */
export async function createApp(config: AppConfig, db: Database, ownsDatabase = true): Promise<NestFastifyApplication> {
  ensureSessionSecret(config);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config, db, ownsDatabase), createFastifyAdapter(config), {
    logger: LEVELS.slice(0, LEVELS.indexOf(config.LOG_LEVEL) + 1),
  });
  return configureApp(app, config);
}
