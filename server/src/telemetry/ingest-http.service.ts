import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IngestError } from './ingest-validator';
import { IngestService } from './ingest.service';
import { TELEMETRY_SETTINGS, type TelemetrySettings } from './telemetry.config';

type Kind = 'telemetry' | 'states' | 'heartbeat';

/**
 * HTTP ingest for controllers that cannot hold an MQTT connection:
 *
 *   POST /api/ingest/<controller_id>/telemetry   (also /states and /heartbeat)
 *   Authorization: Bearer <API token of the controller's company>
 *   Content-Type: application/json
 *
 * 200 {accepted, duplicates, rejected: [{index, reason}]} once the rows are committed; 400 for a
 * body that is not a batch, 401 without a valid token, 403 for a controller the token's company
 * does not own (nothing is written), 413 over the size limits, 503 when storage fails (send again:
 * writes are idempotent). Error bodies are {code, message}, never a stack or SQL.
 */
@Injectable()
export class IngestHttpService implements OnModuleInit {
  private readonly logger = new Logger('IngestHttp');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly ingest: IngestService,
    @Inject(TELEMETRY_SETTINGS) private readonly settings: TelemetrySettings,
  ) {}

  async onModuleInit(): Promise<void> {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify?.register) return; // no HTTP server (a context without Fastify)
    const bodyLimit = this.settings.ingest.maxBodyBytes;
    await fastify.register(async (scope) => {
      scope.setErrorHandler((error: FastifyError, _req, reply) => this.fail(reply, error));
      for (const kind of ['telemetry', 'states', 'heartbeat'] as const) {
        scope.post<{ Params: { controller_id: string } }>(`/api/ingest/:controller_id/${kind}`, { bodyLimit }, (req, reply) => this.handle(kind, req, reply));
      }
    });
  }

  private async handle(kind: Kind, req: FastifyRequest<{ Params: { controller_id: string } }>, reply: FastifyReply) {
    try {
      const type = req.headers['content-type'];
      if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) {
        return reply.code(415).send({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the batch as application/json' });
      }
      const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const controller = await this.ingest.authorize(req.params.controller_id, bearer);
      reply.header('cache-control', 'no-store');
      if (kind === 'heartbeat') {
        this.ingest.heartbeat(controller, req.body ?? undefined, 'http');
        return reply.code(200).send({ ok: true });
      }
      const answer = kind === 'telemetry' ? await this.ingest.telemetry(controller, req.body, 'http') : await this.ingest.states(controller, req.body, 'http');
      return reply.code(200).send(answer);
    } catch (error) {
      return this.fail(reply, error);
    }
  }

  private fail(reply: FastifyReply, error: unknown) {
    if (error instanceof IngestError) {
      if (error.status === 401) reply.header('www-authenticate', 'Bearer');
      return reply.code(error.status).send({ code: error.code, message: error.message });
    }
    const e = error as FastifyError;
    switch (e?.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply
          .code(413)
          .send({ code: 'PAYLOAD_TOO_LARGE', message: `The body may not exceed ${this.settings.ingest.maxBodyBytes} bytes; split the batch` });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.code(415).send({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the batch as application/json' });
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.code(400).send({ code: 'BAD_REQUEST', message: 'The body is empty' });
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return reply.code(400).send({ code: 'BAD_REQUEST', message: 'The Content-Length does not match the body' });
    }
    if (e instanceof SyntaxError || e?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (e?.statusCode === 400 && /JSON/i.test(e.message))) {
      return reply.code(400).send({ code: 'PARSE_ERROR', message: 'The body is not valid JSON' });
    }
    if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
      return reply.code(e.statusCode).send({ code: 'BAD_REQUEST', message: 'The request could not be read' });
    }
    this.logger.error(`ingest failed: ${(error as Error)?.stack ?? String(error)}`);
    return reply.code(500).send({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' });
  }
}
