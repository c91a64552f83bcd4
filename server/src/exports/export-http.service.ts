import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createReadStream } from 'node:fs';
import { PassThrough } from 'node:stream';
import type { Actor } from '../../../shared/access/policy';
import { clearSessionCookie, readSessionCookie } from '../auth/cookies';
import { SessionService } from '../auth/session.service';
import { fieldErrorsOf } from '../common/field-error';
import { exportChunks, ExportAborted, writeExport } from './export-stream';
import { AppConfig } from '../config/config';
import { ExportJobsRepository } from './export-jobs.repository';
import { ExportJobsService } from './export-jobs.service';
import { ExportMetrics } from './export-metrics';
import { ZExportRunInput, ZExportStreamQuery } from './exports.schema';
import { ExportsService } from './exports.service';

const CONTENT_TYPE = { csv: 'text/csv; charset=utf-8', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } as const;

class HttpFail extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fieldErrors?: { path: string; message: string }[],
  ) {
    super(message);
  }
}

const attachment = (name: string) => `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/**
 * Data exports over plain HTTP (docs/exports.md), signed in with the session cookie:
 *
 *   GET /api/exports/stream?template_cuid&from&to[&format&timezone&decimal]  → the file, streamed
 *   GET /api/exports/jobs/<id>/file                                          → a background job's file (Range, If-Range)
 *
 * 401 without a session, 404 for a template or job the caller may not see (exactly like a missing
 * one), 400 with field errors for a bad request. Error bodies are {code, message[, fieldErrors]}.
 */
@Injectable()
export class ExportHttpService implements OnModuleInit {
  private readonly logger = new Logger('ExportHttp');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly sessions: SessionService,
    private readonly exports: ExportsService,
    private readonly jobs: ExportJobsService,
    private readonly rows: ExportJobsRepository,
    private readonly config: AppConfig,
    private readonly metrics: ExportMetrics,
  ) {}

  /** Streams (GET /api/exports/stream) open on this instance, by user: at most EXPORT_USER_MAX_STREAMS each. */
  private readonly streams = new Map<string, number>();

  async onModuleInit(): Promise<void> {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify?.register) return;
    await fastify.register(async (scope) => {
      scope.get('/api/exports/stream', (req, reply) => this.stream(req, reply));
      scope.get<{ Params: { id: string } }>('/api/exports/jobs/:id/file', (req, reply) => this.file(req, reply));
    });
  }

  private async actor(req: FastifyRequest, reply: FastifyReply): Promise<Actor> {
    const cookie = readSessionCookie(req);
    if (cookie) {
      const check = await this.sessions.check(cookie);
      if (check.ok) return check.actor;
      clearSessionCookie(req, reply);
    }
    throw new HttpFail(401, 'UNAUTHORIZED', 'Sign in to continue');
  }

  private async stream(req: FastifyRequest, reply: FastifyReply) {
    let body: PassThrough | undefined;
    try {
      const actor = await this.actor(req, reply);
      const query = ZExportStreamQuery.safeParse(req.query ?? {});
      const input = query.success ? ZExportRunInput.safeParse(query.data) : query;
      if (!input.success) {
        const fieldErrors = input.error.issues.flatMap((i) =>
          i.code === 'unrecognized_keys'
            ? i.keys.map((k) => ({ path: k, message: 'Unknown parameter' }))
            : [{ path: i.path.map(String).join('.'), message: i.message }],
        );
        throw new HttpFail(400, 'BAD_REQUEST', 'Some parameters are not valid', fieldErrors);
      }
      const template = await this.exports.template(actor, input.data.template_cuid);
      const plan = await this.exports.plan(template, input.data);
      const open = this.streams.get(actor.user_cuid) ?? 0;
      if (open >= this.config.EXPORT_USER_MAX_STREAMS) {
        this.metrics.refused('user_streams');
        throw new HttpFail(429, 'TOO_MANY_REQUESTS', `You already have ${this.config.EXPORT_USER_MAX_STREAMS} exports downloading; wait for one to finish`);
      }
      this.streams.set(actor.user_cuid, open + 1);
      const release = () => {
        const left = (this.streams.get(actor.user_cuid) ?? 1) - 1;
        if (left > 0) this.streams.set(actor.user_cuid, left);
        else this.streams.delete(actor.user_cuid);
      };
      body = new PassThrough({ highWaterMark: 256 * 1024 });
      reply
        .code(200)
        .header('content-type', CONTENT_TYPE[plan.format])
        .header('content-disposition', attachment(this.exports.fileName(template, plan)))
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff');
      const out = body;
      const abort = new AbortController();
      req.raw.once('close', () => {
        if (!reply.raw.writableFinished) abort.abort();
      });
      const read = (sql: string, values: unknown[]) => this.rows.readChunk(sql, values, this.config.EXPORT_STATEMENT_TIMEOUT_MS);
      writeExport(out, plan, exportChunks(read, plan, abort.signal, this.config.EXPORT_CHUNK_ROWS))
        .catch((e) => {
          if (!(e instanceof ExportAborted)) this.logger.error(`export stream failed: ${(e as Error).message}`);
          out.destroy(e instanceof Error ? e : undefined);
        })
        .finally(release);
      return reply.send(out);
    } catch (e) {
      body?.destroy();
      return this.fail(reply, e);
    }
  }

  private async file(req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
    try {
      const actor = await this.actor(req, reply);
      const id = String(req.params.id ?? '');
      if (!/^[a-z0-9]{1,32}$/.test(id)) throw new HttpFail(404, 'NOT_FOUND', 'Export not found');
      const f = await this.jobs.file(actor, id);
      reply
        .header('content-type', CONTENT_TYPE[f.format as 'csv' | 'xlsx'])
        .header('content-disposition', attachment(f.name))
        .header('accept-ranges', 'bytes')
        .header('etag', f.etag)
        .header('cache-control', 'private, no-cache')
        .header('x-content-type-options', 'nosniff');
      const range = req.headers.range;
      const ifRange = req.headers['if-range'];
      const honour = range !== undefined && (ifRange === undefined || ifRange === f.etag);
      if (honour) {
        const r = parseRange(range, f.size);
        if (r === 'unsatisfiable') {
          reply.removeHeader('content-disposition');
          reply.header('content-range', `bytes */${f.size}`).header('content-type', 'application/json; charset=utf-8');
          return reply.code(416).send({ code: 'RANGE_NOT_SATISFIABLE', message: 'The range is outside the file' });
        }
        if (r) {
          reply
            .code(206)
            .header('content-range', `bytes ${r.start}-${r.end}/${f.size}`)
            .header('content-length', String(r.end - r.start + 1));
          return reply.send(createReadStream(f.path, { start: r.start, end: r.end }));
        }
      }
      reply.code(200).header('content-length', String(f.size));
      return reply.send(createReadStream(f.path));
    } catch (e) {
      return this.fail(reply, e);
    }
  }

  private fail(reply: FastifyReply, e: unknown) {
    if (e instanceof HttpFail)
      return reply.code(e.status).send(e.fieldErrors ? { code: e.code, message: e.message, fieldErrors: e.fieldErrors } : { code: e.code, message: e.message });
    if (e instanceof TRPCError && e.code !== 'INTERNAL_SERVER_ERROR') {
      const fieldErrors = fieldErrorsOf(e);
      return reply
        .code(getHTTPStatusCodeFromError(e))
        .send(fieldErrors ? { code: e.code, message: e.message, fieldErrors } : { code: e.code, message: e.message });
    }
    this.logger.error(`export endpoint failed: ${(e as Error)?.stack ?? String(e)}`);
    return reply.code(500).send({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' });
  }
}

/** One byte range of `bytes=a-b`, `bytes=a-` or `bytes=-n`; null for a header we ignore (several ranges, another unit). */
export function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return null;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}
