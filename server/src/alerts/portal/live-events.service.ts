import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { EventEmitter, on } from 'node:events';
import { Client } from 'pg';
import { newCuid } from '../../common/ids';
import { AppConfig } from '../../config/config';
import { LIVE_FAN_OUT, LiveEventsRepository } from './live-events.repository';
import type { TLiveEvent } from './portal.schema';

const CHANNEL = 'portal_live';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_NOTIFY_BYTES = 7900;
/** Stored event bodies older than this are swept (every instance has loaded them by then). */
const KEEP_EVENTS_MINUTES = 60;

/** What a NOTIFY carries: the stored event's id and (some of) its recipients, never the body. */
interface Notice {
  id: string;
  users: string[];
}

/** How an open stream is tied to the session that opened it. */
export interface LiveStreamSession {
  /** The request's signal: aborted when the browser goes away. */
  signal?: AbortSignal;
  /** The session id (logout of it ends the stream at once, see endSession). */
  sid: string;
  /** Whether the session is still valid (not signed out, user active, epoch unchanged). */
  stillValid: () => Promise<boolean>;
  /** Cuts the connection of a stream whose session ended (the browser reconnects with whatever cookie it now has). */
  cut: () => void;
}

interface OpenStream {
  user_cuid: string;
  sid: string;
  /** Ends the stream quietly (replaced by a newer one of the same user). */
  end: AbortController;
  cut: () => void;
}

/**
 * Delivers live events to the browsers of given users (the tRPC SSE subscription listens here).
 * On PostgreSQL every instance LISTENs; a publish stores the event in live_event and NOTIFYs its
 * id (bodies can exceed NOTIFY's 8000-byte limit), and each instance loads the body by id to fan
 * out. The embedded database has one process and emits directly.
 *
 * A stream follows its session: before each event and every LIVE_SESSION_CHECK_SECONDS its session
 * is checked, and a signed-out, deactivated or re-passworded session's stream is cut. A user holds
 * at most LIVE_STREAMS_PER_USER streams per instance; a new one ends the oldest.
 */
@Injectable()
export class LiveEventsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(LiveEventsService.name);
  private readonly emitter = new EventEmitter();
  private listener?: Client;
  private sweeper?: NodeJS.Timeout;
  private readonly streams = new Map<string, OpenStream[]>();
  /** Bodies being loaded, by id: one read per event per instance, however many NOTIFYs carry it. */
  private readonly loading = new Map<string, Promise<TLiveEvent | undefined>>();
  constructor(
    private readonly config: AppConfig,
    /** Its SQL: a provider next to this service (a process that provides the service provides it too). */
    private readonly rows: LiveEventsRepository,
  ) {
    this.emitter.setMaxListeners(0);
  }

  async onModuleInit(): Promise<void> {
    if (!this.config.DATABASE_URL) return;
    // A dedicated connection: LISTEN must not sit on a pooled one.
    const client = new Client({ connectionString: this.config.DATABASE_URL });
    client.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      void this.fanOut(msg.payload);
    });
    client.on('error', (e) => this.logger.error(`Live events connection failed: ${e.message}`));
    await client.connect();
    await this.rows.listen(LIVE_FAN_OUT, client, CHANNEL);
    this.listener = client;
    this.sweeper = setInterval(() => void this.sweep(), 10 * 60 * 1000);
    this.sweeper.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweeper);
    for (const list of this.streams.values()) for (const s of list) s.end.abort();
    this.emitter.removeAllListeners();
    await this.listener?.end().catch(() => undefined);
  }

  private deliver(users: string[], event: TLiveEvent): void {
    for (const user of users) this.emitter.emit(`user:${user}`, event);
  }

  private async fanOut(payload: string): Promise<void> {
    try {
      const notice = JSON.parse(payload) as Notice;
      if (typeof notice?.id !== 'string' || !Array.isArray(notice.users)) throw new Error('not a live event notice');
      let body = this.loading.get(notice.id);
      if (!body) {
        body = this.load(notice.id);
        this.loading.set(notice.id, body);
        setTimeout(() => this.loading.delete(notice.id), 30_000).unref();
      }
      const event = await body;
      if (event) this.deliver(notice.users, event);
    } catch (e) {
      this.logger.warn(`Dropped a live event: ${(e as Error).message}`);
    }
  }

  private async load(id: string): Promise<TLiveEvent | undefined> {
    const payload = await this.rows.load(LIVE_FAN_OUT, id);
    if (payload === undefined) return undefined;
    return JSON.parse(payload, reviveDates) as TLiveEvent;
  }

  private async sweep(): Promise<void> {
    try {
      await this.rows.sweep(LIVE_FAN_OUT, KEEP_EVENTS_MINUTES);
    } catch (e) {
      this.logger.warn(`Could not sweep live events: ${(e as Error).message}`);
    }
  }

  async publish(users: string[], event: TLiveEvent): Promise<void> {
    if (users.length === 0) return;
    if (!this.listener) {
      this.deliver(users, event);
      return;
    }
    const id = newCuid();
    await this.rows.store(LIVE_FAN_OUT, id, JSON.stringify(event));
    // Split the recipients so each NOTIFY stays under PostgreSQL's payload limit.
    let batch: string[] = [];
    const base = Buffer.byteLength(JSON.stringify({ id, users: [] }));
    let size = base;
    const flush = async () => {
      if (batch.length) await this.rows.notify(LIVE_FAN_OUT, CHANNEL, JSON.stringify({ id, users: batch } satisfies Notice));
      batch = [];
      size = base;
    };
    for (const user of users) {
      const bytes = Buffer.byteLength(JSON.stringify(user)) + 1;
      if (size + bytes > MAX_NOTIFY_BYTES) await flush();
      batch.push(user);
      size += bytes;
    }
    await flush();
  }

  /** Live streams open on this instance (portal_live_streams). */
  get openStreams(): number {
    let n = 0;
    for (const list of this.streams.values()) n += list.length;
    return n;
  }

  /** Ends, on this instance, the streams opened by a session that was just signed out. */
  endSession(sid: string): void {
    for (const list of this.streams.values()) for (const s of list) if (s.sid === sid) s.cut();
  }

  private register(stream: OpenStream): () => void {
    const list = this.streams.get(stream.user_cuid) ?? [];
    list.push(stream);
    this.streams.set(stream.user_cuid, list);
    // Oldest first: past the cap, the oldest streams end (quietly: their tab does not reconnect).
    while (list.length > this.config.LIVE_STREAMS_PER_USER) list.shift()!.end.abort();
    return () => {
      const at = list.indexOf(stream);
      if (at >= 0) list.splice(at, 1);
      if (!list.length && this.streams.get(stream.user_cuid) === list) this.streams.delete(stream.user_cuid);
    };
  }

  /** Events for one user until the browser goes away, a newer stream replaces this one, or the session ends. */
  async *subscribe(user_cuid: string, session: LiveStreamSession): AsyncGenerator<TLiveEvent> {
    const end = new AbortController();
    let cutDone = false;
    const cut = () => {
      if (cutDone) return;
      cutDone = true;
      end.abort();
      session.cut();
    };
    const unregister = this.register({ user_cuid, sid: session.sid, end, cut });
    const signal = session.signal ? AbortSignal.any([session.signal, end.signal]) : end.signal;
    const check = async () => {
      try {
        if (!(await session.stillValid())) cut();
      } catch (e) {
        this.logger.warn(`Could not check a live stream's session: ${(e as Error).message}`);
      }
    };
    const timer = setInterval(() => void check(), this.config.LIVE_SESSION_CHECK_SECONDS * 1000);
    timer.unref();
    try {
      for await (const [event] of on(this.emitter, `user:${user_cuid}`, { signal })) {
        // Nothing reaches a session that ended since the last check.
        await check();
        if (end.signal.aborted) return;
        yield event as TLiveEvent;
      }
    } catch (e) {
      if ((e as Error).name !== 'AbortError') throw e;
    } finally {
      clearInterval(timer);
      unregister();
    }
  }
}

/** Dates travel as ISO strings; the toast's triggeredAt is made a Date again. */
function reviveDates(key: string, value: unknown): unknown {
  return key === 'timestamp' && typeof value === 'string' ? new Date(value) : value;
}
