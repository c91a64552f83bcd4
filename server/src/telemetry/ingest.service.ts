import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { CONTROLLER_ID_PATTERN } from '../../../shared/common/enums';
import { PortalMetrics } from '../common/metrics';
import { AuthTokenService } from '../tokens/auth-token.service';
import { ControllerOnlineStateService } from './controller-online-state.service';
import { ControllerDirectoryService, type DirectoryController } from './controller-directory.service';
import { IngestBatcher, SubmissionRefused } from './ingest-batcher';
import { IngestError, IngestValidator, type ValidatedBatch } from './ingest-validator';
import { type Clock, TELEMETRY_CLOCK, TELEMETRY_SETTINGS, type TelemetrySettings } from './telemetry.config';
import { type TIngestAnswer, ZHeartbeat } from './telemetry.schema';
import { TelemetryWriter } from './telemetry-writer.service';

export type Transport = 'http' | 'mqtt' | 'direct';

/**
 * The ingest path shared by HTTP, the external broker and the in-process broker:
 * check → validate row by row → buffer (≤ N rows or ≤ 50 ms) → one INSERT … unnest … ON CONFLICT
 * DO NOTHING per batch with the rollup merge → commit → answer. The answer (and so the HTTP 200
 * or the PUBACK) comes only after the commit.
 */
@Injectable()
export class IngestService implements OnApplicationShutdown {
  private readonly logger = new Logger('Ingest');
  private readonly validator: IngestValidator;
  private readonly batcher: IngestBatcher;

  constructor(
    private readonly directory: ControllerDirectoryService,
    private readonly writer: TelemetryWriter,
    private readonly presence: ControllerOnlineStateService,
    private readonly tokens: AuthTokenService,
    @Inject(TELEMETRY_SETTINGS) private readonly settings: TelemetrySettings,
    @Inject(TELEMETRY_CLOCK) private readonly clock: Clock,
    private readonly metrics: PortalMetrics,
  ) {
    this.validator = new IngestValidator(directory, settings);
    this.batcher = new IngestBatcher(
      (input) => writer.write(input),
      (batch) => this.validator.recheck(batch),
      {
        maxRows: settings.ingest.batchMaxRows,
        maxWaitMs: settings.ingest.batchMaxWaitMs,
        shards: settings.ingest.flushConcurrency,
      },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.batcher.drain();
  }

  /** Rows waiting for their batch. */
  get backlog(): number {
    return this.batcher.backlog;
  }

  /**
   * Checks a controller's credentials: a live API token of the company that owns the controller.
   * Any other case answers alike (no hint whether the controller exists elsewhere).
   */
  async authorize(controller_id: string, token: string | undefined): Promise<DirectoryController> {
    if (!token) throw new IngestError('UNAUTHORIZED', 'Send an API token: Authorization: Bearer <token>', 401);
    const caller = await this.tokens.authenticate(`Bearer ${token}`);
    if (!caller) throw new IngestError('UNAUTHORIZED', 'The API token is not valid (unknown, revoked or expired)', 401);
    const controller = CONTROLLER_ID_PATTERN.test(controller_id) ? await this.directory.controller(controller_id) : null;
    if (!controller || controller.company_cuid !== caller.company_cuid) {
      throw new IngestError('FORBIDDEN', `This token may not send data for controller '${controller_id}'`, 403);
    }
    return controller;
  }

  /** The controller named by a topic or path, for an already trusted channel (external broker). */
  async known(controller_id: string): Promise<DirectoryController> {
    const controller = CONTROLLER_ID_PATTERN.test(controller_id) ? await this.directory.controller(controller_id) : null;
    if (!controller) throw new IngestError('FORBIDDEN', `Unknown controller '${controller_id}'`, 403);
    return controller;
  }

  /** A telemetry batch (ParameterLog rows and SystemStandardValueLog rows). */
  async telemetry(controller: DirectoryController, payload: unknown, transport: Transport): Promise<TIngestAnswer> {
    this.presence.touch(controller.controller_id, transport);
    const batch = await this.validator.telemetry(controller, payload, this.clock.now());
    return this.store(batch, transport);
  }

  /** A DeviceState batch. */
  async states(controller: DirectoryController, payload: unknown, transport: Transport): Promise<TIngestAnswer> {
    this.presence.touch(controller.controller_id, transport);
    const batch = await this.validator.states(controller, payload, this.clock.now());
    return this.store(batch, transport);
  }

  /** A heartbeat: only the online state moves. */
  heartbeat(controller: DirectoryController, payload: unknown, transport: Transport): void {
    if (payload !== undefined && payload !== null && !ZHeartbeat.safeParse(payload).success) {
      throw new IngestError('BAD_REQUEST', 'A heartbeat is an empty payload or an object {timestamp?, sw_version?, uptime_s?}', 400);
    }
    this.presence.touch(controller.controller_id, transport);
  }

  /** Any other sign of life (an MQTT connect or ping). */
  contact(controller_id: string, transport: Transport): void {
    this.presence.touch(controller_id, transport);
  }

  private async store(batch: ValidatedBatch, transport: Transport): Promise<TIngestAnswer> {
    const submitted = batch.rows.length + batch.standard.length + batch.states.length;
    try {
      const result = await this.batcher.submit(batch);
      this.metrics.countIngest(transport, result.accepted, { invalid: result.rejected.length, duplicate: result.duplicates });
      return {
        ...(batch.batch_id !== undefined ? { batch_id: batch.batch_id } : {}),
        accepted: result.accepted,
        duplicates: result.duplicates,
        rejected: result.rejected,
      };
    } catch (error) {
      if (error instanceof SubmissionRefused) {
        this.metrics.countIngest(transport, 0, { invalid: batch.rejected.length, database_refused: submitted });
        // Its own content: the other submissions of the flush are stored; this one never will be.
        this.logger.warn(`batch of ${batch.controller_id} ${error.message}`);
        throw new IngestError(
          'UNPROCESSABLE',
          'The database refused this batch (nothing of it was stored); sending it again as it is will not help: fix or drop it',
          422,
        );
      }
      this.metrics.countIngest(transport, 0, { invalid: batch.rejected.length, not_stored: submitted });
      this.logger.error(`batch of ${batch.controller_id} not stored: ${(error as Error).message}`);
      throw new IngestError('UNAVAILABLE', 'The data could not be stored right now; send it again later', 503);
    }
  }
}

/** Parses an MQTT payload (JSON text); an empty payload is `undefined`. */
export function parseJsonPayload(payload: Buffer): unknown {
  if (!payload.length) return undefined;
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    throw new IngestError('PARSE_ERROR', 'The payload is not valid JSON', 400);
  }
}
