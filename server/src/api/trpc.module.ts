import { Injectable, Logger, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AlertEngineModule } from '../alerts/engine/alert-engine.module';
import { AlertChannelsModule } from '../alerts/channels/channels.module';
import { AuthModule } from '../auth/auth.module';
import { TokensModule } from '../tokens/tokens.module';
import { AppConfig } from '../config/config';
import { BrandingModule } from '../branding/branding.module';
import { DashboardsModule } from '../dashboards/dashboards.module';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../auth/cookies';
import { SessionService } from '../auth/session.service';
import { CompaniesModule } from '../companies/companies.module';
import { RESOURCES } from './resource-routers';
import { CrudService } from '../crud/crud.service';
import { FilesModule } from '../files/files.module';
import { AlertPortalModule } from '../alerts/portal/portal.module';
import { TelemetryModule } from '../telemetry/telemetry.module';
import { UsersModule } from '../users/users.module';
import { type AppRouter, buildAllRoutes, buildAppRouter } from './app.router';
import type { TrpcContext } from '../trpc/context';
import { conditionalGet } from '../common/conditional';
import { PortalMetrics } from '../common/metrics';
import { Counter } from 'prom-client';
import { RequestBrake, requestBrakeHook } from './request-brake';

/** Largest tRPC request body; larger ones answer 413 PAYLOAD_TOO_LARGE. */
export const TRPC_MAX_BODY_BYTES = 1024 * 1024;

/**
 * tRPC calls carry JSON (POST) or nothing (GET). Other bodies — multipart forms, which the files
 * module teaches Fastify to parse, URL-encoded forms, XML — answer 415 before tRPC sees them.
 */
export function refuseNonJsonBodies(req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const type = req.headers['content-type'];
  if ((req.routeOptions.url ?? '').startsWith('/api/trpc') && type !== undefined && !/^application\/json\s*(;|$)/i.test(type) && req.method !== 'GET') {
    void reply
      .code(415)
      .header('content-type', 'application/json; charset=utf-8')
      .send({ error: { json: { message: 'Send tRPC calls as application/json', code: -32600, data: { code: 'UNSUPPORTED_MEDIA_TYPE', httpStatus: 415 } } } });
    return;
  }
  done();
}

/**
 * A batched call names every procedure in its path ("a,b,c?batch=1"): past TRPC_MAX_BATCH_SIZE
 * calls the whole request answers 413 before its body is read or any procedure runs (one POST of
 * 100 password changes held the hashing threads for seconds).
 */
export function limitBatchSize(max: number) {
  return (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const path = (req.params as { path?: unknown } | undefined)?.path;
    if (req.routeOptions.url === '/api/trpc/:path' && typeof path === 'string' && (req.query as { batch?: unknown })?.batch !== undefined) {
      const calls = path.split(',').length;
      if (calls > max) {
        void reply
          .code(413)
          .header('content-type', 'application/json; charset=utf-8')
          .send({
            error: {
              json: {
                message: `A batch may hold at most ${max} calls (this one has ${calls}); split it`,
                code: -32600,
                data: { code: 'PAYLOAD_TOO_LARGE', httpStatus: 413 },
              },
            },
          });
        return;
      }
    }
    done();
  };
}

@Injectable()
export class TrpcService implements OnModuleInit {
  private readonly logger = new Logger('tRPC');
  /** Built once every module's providers exist (onModuleInit): a provider looked up earlier may be unconstructed. */
  appRouter!: AppRouter;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly sessions: SessionService,
    private readonly config: AppConfig,
    private readonly modules: ModuleRef,
    private readonly metrics: PortalMetrics,
  ) {}

  /** The app router from every declaration of ROUTES, with the services Nest made (each in its own module). */
  private buildRouter(): AppRouter {
    // CSV imports name a reference by the name of the record it points to (crud/csv-names.ts).
    const crud = this.modules.get(CrudService, { strict: false });
    for (const def of RESOURCES) crud.register(def);
    return buildAppRouter(buildAllRoutes((type) => this.modules.get(type, { strict: false })));
  }

  async createContext({ req, res }: { req: FastifyRequest; res: FastifyReply }): Promise<TrpcContext> {
    const cookie = readSessionCookie(req);
    if (!cookie) return { req, res };
    const check = await this.sessions.check(cookie);
    if (!check.ok) {
      clearSessionCookie(req, res);
      return { req, res, sessionFailure: check.reason };
    }
    const renewSession = async (epoch: number) => {
      const renewed = await this.sessions.renewAfterOwnChange(check.payload, epoch);
      if (renewed) setSessionCookie(req, res, renewed.cookie);
    };
    return { req, res, actor: check.actor, session: check.payload, renewSession };
  }

  /** Mounts tRPC at /api/trpc with @trpc/server's own Fastify adapter. */
  async onModuleInit(): Promise<void> {
    this.appRouter = this.buildRouter();
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onSend', wholeJsonAnswer);
    // After wholeJsonAnswer (which makes a query's answer bytes): queries answer 304 when unchanged.
    fastify.addHook(
      'onSend',
      conditionalGet((req) => req.routeOptions.url === '/api/trpc/:path'),
    );
    fastify.addHook('onRequest', refuseNonJsonBodies);
    fastify.addHook('onRequest', limitBatchSize(this.config.TRPC_MAX_BATCH_SIZE));
    const braked = new Counter({
      name: 'portal_request_brake_refusals_total',
      help: 'tRPC requests answered 429 because their session called faster than REQUESTS_PER_SESSION_PER_SECOND.',
      registers: [this.metrics.registry],
    });
    const brake = new RequestBrake(this.config.REQUESTS_PER_SESSION_PER_SECOND, this.config.REQUESTS_PER_SESSION_BURST);
    fastify.addHook(
      'onRequest',
      requestBrakeHook(
        brake,
        (cookie) => this.sessions.languageMetaOf(cookie),
        () => braked.inc(),
      ),
    );
    await fastify.register(fastifyTRPCPlugin, {
      prefix: '/api/trpc',
      trpcOptions: {
        router: this.appRouter,
        createContext: (opts) => this.createContext(opts),
        maxBodySize: TRPC_MAX_BODY_BYTES,
        // The same limit inside tRPC, should a request ever reach it past the hook.
        maxBatchSize: this.config.TRPC_MAX_BATCH_SIZE,
        allowMethodOverride: false,
        onError: ({ error, path }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR') {
            this.logger.error(`${path ?? '?'}: ${error.cause?.stack ?? error.stack ?? error.message}`);
          }
        },
      } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
    });
  }
}

/**
 * tRPC answers with a Fetch `Response`; Fastify would pipe its body as a chunked stream. A plain
 * JSON answer (every query and mutation) is sent whole with its length instead, which costs far
 * less per call. Streams (SSE subscriptions, JSONL batches) stay streams.
 */
async function wholeJsonAnswer(_req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (!(payload instanceof Response) || payload.body === null) return payload;
  if (payload.headers.get('content-type') !== 'application/json' || payload.headers.has('transfer-encoding')) return payload;
  reply.code(payload.status);
  payload.headers.forEach((value, name) => {
    reply.header(name, value);
  });
  return Buffer.from(await payload.arrayBuffer());
}

@Module({
  imports: [
    AuthModule,
    TokensModule,
    UsersModule,
    CompaniesModule,
    BrandingModule,
    DashboardsModule,
    AlertPortalModule,
    TelemetryModule,
    FilesModule,
    AlertEngineModule,
    AlertChannelsModule,
  ],
  providers: [TrpcService],
  exports: [TrpcService],
})
export class TrpcModule {}
