import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CommandAckError } from '../../gateway/command-link';
import { IngestError } from '../../telemetry/ingest-validator';
import { IngestService } from '../../telemetry/ingest.service';
import { CommandService } from './command.service';

/** Largest ack body (an applied configuration of many devices). */
const ACK_BODY_LIMIT = 256 * 1024;
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

type Params = { Params: { controller_id: string }; Querystring: { limit?: string } };

/**
 * Commands over HTTP for controllers without MQTT (docs/controller-protocol.md, *Commands*):
 *
 *   GET  /api/ingest/<controller_id>/commands?limit=N   → 200 {commands: [{id, kind, payload, not_after, requested_at}]}
 *   POST /api/ingest/<controller_id>/commands/ack       → 200 {id, status, recorded, late}
 *   Authorization: Bearer <API token of the controller's company> (as for ingest)
 *
 * The fetched commands become SENT (fetch again: the unanswered ones come back, de-duplicate by
 * id). 400 a malformed ack, 401 without a valid token, 403 a controller the token's company does
 * not own, 404 an id that is not a command of this controller (nothing changes), 415 a body that
 * is not JSON. Error bodies are {code, message}.
 */
@Injectable()
export class CommandHttpService implements OnModuleInit {
  private readonly logger = new Logger('CommandHttp');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly ingest: IngestService,
    private readonly commands: CommandService,
  ) {}

  async onModuleInit(): Promise<void> {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify?.register) return;
    await fastify.register(async (scope) => {
      scope.setErrorHandler((error: FastifyError, _req, reply) => this.fail(reply, error));
      scope.get<Params>('/api/ingest/:controller_id/commands', (req, reply) => this.fetch(req, reply));
      scope.post<Params>('/api/ingest/:controller_id/commands/ack', { bodyLimit: ACK_BODY_LIMIT }, (req, reply) => this.ack(req, reply));
    });
  }

  private async fetch(req: FastifyRequest<Params>, reply: FastifyReply) {
    try {
      const controller = await this.authorize(req);
      const raw = req.query?.limit;
      let limit = DEFAULT_LIMIT;
      if (raw !== undefined) {
        // 1..MAX_LIMIT as documented; anything else (0, 101, 1e3, "abc", a repeated ?limit) is a 400 on the field.
        if (typeof raw !== 'string' || !/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_LIMIT) {
          const message = `limit: a whole number from 1 to ${MAX_LIMIT}`;
          return reply.code(400).send({ code: 'BAD_REQUEST', message, fieldErrors: [{ path: 'limit', message }] });
        }
        limit = Number(raw);
      }
      const commands = await this.commands.takePending(controller.controller_id, limit);
      reply.header('cache-control', 'no-store');
      return reply.code(200).send({ commands });
    } catch (error) {
      return this.fail(reply, error);
    }
  }

  private async ack(req: FastifyRequest<Params>, reply: FastifyReply) {
    try {
      const type = req.headers['content-type'];
      if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) {
        return reply.code(415).send({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the acknowledgement as application/json' });
      }
      const controller = await this.authorize(req);
      const outcome = await this.commands.ack(controller.controller_id, req.body ?? undefined, 'http');
      reply.header('cache-control', 'no-store');
      return reply.code(200).send(outcome.recorded ? outcome : { ...outcome, late: false });
    } catch (error) {
      return this.fail(reply, error);
    }
  }

  private authorize(req: FastifyRequest<Params>) {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    return this.ingest.authorize(req.params.controller_id, bearer);
  }

  private fail(reply: FastifyReply, error: unknown) {
    if (error instanceof IngestError) {
      if (error.status === 401) reply.header('www-authenticate', 'Bearer');
      return reply.code(error.status).send({ code: error.code, message: error.message });
    }
    if (error instanceof CommandAckError) return reply.code(error.status).send({ code: error.code, message: error.message });
    const e = error as FastifyError;
    switch (e?.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.code(413).send({ code: 'PAYLOAD_TOO_LARGE', message: `The body may not exceed ${ACK_BODY_LIMIT} bytes` });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.code(415).send({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the acknowledgement as application/json' });
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.code(400).send({ code: 'BAD_REQUEST', message: 'The body is empty' });
    }
    if (e instanceof SyntaxError || e?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (e?.statusCode === 400 && /JSON/i.test(e.message))) {
      return reply.code(400).send({ code: 'PARSE_ERROR', message: 'The body is not valid JSON' });
    }
    if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
      return reply.code(e.statusCode).send({ code: 'BAD_REQUEST', message: 'The request could not be read' });
    }
    this.logger.error(`command endpoint failed: ${(error as Error)?.stack ?? String(error)}`);
    return reply.code(500).send({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' });
  }
}
