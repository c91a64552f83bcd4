import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { EventEmitter, on } from 'node:events';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { AppConfig } from '../config/config';
import { DATA_SOURCE } from '../database/database.module';
import type { TLiveEvent } from './notifications.schema';

const CHANNEL = 'portal_live';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_NOTIFY_BYTES = 7900;

interface Envelope {
  users: string[];
  event: TLiveEvent;
}

/**
 * Delivers live events to the browsers of given users (the tRPC SSE subscription listens here).
 * On PostgreSQL every instance LISTENs and a publish is a NOTIFY, so events reach users whichever
 * instance holds their connection; the embedded database has one process and emits directly.
 */
@Injectable()
export class LiveEventsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(LiveEventsService.name);
  private readonly emitter = new EventEmitter();
  private listener?: Client;

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly config: AppConfig,
  ) {
    this.emitter.setMaxListeners(0);
  }

  async onModuleInit(): Promise<void> {
    if (!this.config.DATABASE_URL) return;
    // A dedicated connection: LISTEN must not sit on a pooled one.
    const client = new Client({ connectionString: this.config.DATABASE_URL });
    client.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      try {
        this.deliver(JSON.parse(msg.payload, reviveDates) as Envelope);
      } catch (e) {
        this.logger.warn(`Dropped a malformed live event: ${(e as Error).message}`);
      }
    });
    client.on('error', (e) => this.logger.error(`Live events connection failed: ${e.message}`));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
  }

  async onModuleDestroy(): Promise<void> {
    this.emitter.removeAllListeners();
    await this.listener?.end().catch(() => undefined);
  }

  private deliver(envelope: Envelope): void {
    for (const user of envelope.users) this.emitter.emit(`user:${user}`, envelope.event);
  }

  async publish(users: string[], event: TLiveEvent): Promise<void> {
    if (users.length === 0) return;
    if (!this.listener) {
      this.deliver({ users, event });
      return;
    }
    // Split so each NOTIFY stays under PostgreSQL's payload limit.
    let batch: string[] = [];
    const flush = async () => {
      if (batch.length) await this.ds.query(`SELECT pg_notify($1, $2)`, [CHANNEL, JSON.stringify({ users: batch, event })]);
      batch = [];
    };
    const base = Buffer.byteLength(JSON.stringify({ users: [], event }));
    if (base > MAX_NOTIFY_BYTES) throw new Error('Live event too large for NOTIFY');
    let size = base;
    for (const user of users) {
      if (size + user.length + 3 > MAX_NOTIFY_BYTES) {
        await flush();
        size = base;
      }
      batch.push(user);
      size += user.length + 3;
    }
    await flush();
  }

  /** Events for one user until the signal aborts (the client disconnects). */
  async *subscribe(user_cuid: string, signal?: AbortSignal): AsyncGenerator<TLiveEvent> {
    try {
      for await (const [event] of on(this.emitter, `user:${user_cuid}`, { signal })) {
        yield event as TLiveEvent;
      }
    } catch (e) {
      if ((e as Error).name !== 'AbortError') throw e;
    }
  }
}

/** Dates travel through NOTIFY as ISO strings; the toast's triggeredAt is made a Date again. */
function reviveDates(key: string, value: unknown): unknown {
  return key === 'timestamp' && typeof value === 'string' ? new Date(value) : value;
}
