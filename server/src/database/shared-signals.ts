import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { EntityManager } from 'typeorm';
import type { Database } from './data-source';

/** The PostgreSQL channel every instance LISTENs on for cache invalidations. */
export const SIGNAL_CHANNEL = 'portal_signal';

/**
 * The topics in use (one place, so a publisher and its listeners cannot drift apart):
 * - `table`: rows of the table named by the key were written (the CRUD service, after commit);
 * - `brand`: branding data changed; `triggers`: notification triggers changed (the engine reloads);
 * - `trigger-status`: the status row of the trigger named by the key moved (state, pending);
 * - `auth-tokens`: an API token was revoked (connected controllers are checked again);
 * - `channel-test`: a test message went to the channel named by the key (its cool-down starts everywhere).
 */
export const SIGNAL_TOPICS = {
  table: 'table',
  brand: 'brand',
  triggers: 'triggers',
  triggerStatus: 'trigger-status',
  authTokens: 'auth-tokens',
  channelTest: 'channel-test',
} as const;

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; a longer key is sent as "everything". */
const MAX_KEY_CHARS = 4000;

/** What one NOTIFY carries: the topic, an optional key inside it (null: all of it) and the sender. */
interface Signal {
  t: string;
  k: string | null;
  o: string;
}

export type SignalHandler = (key: string | null) => void;

/**
 * Cache invalidation between instances (docs/scaling.md, "Shared state"). A process keeps a
 * cache (brands, list counts, the trigger index…) only if it registers a handler here that drops
 * it: `publish(topic, key)` runs this instance's handlers at once and, on PostgreSQL, NOTIFYs
 * every other instance, whose handlers run when the notice arrives (a few milliseconds). A
 * publish inside a transaction (`publishIn(manager, …)`) is delivered when it commits, never
 * when it rolls back.
 *
 * If the LISTEN connection drops, notices sent meanwhile are lost: on reconnect every handler is
 * called with `null` (drop everything), so a lost notice can only cost a cache miss. The embedded
 * database has one process: publish runs the local handlers only.
 */
export class SharedSignals {
  private readonly logger = new Logger('SharedSignals');
  private readonly handlers = new Map<string, SignalHandler[]>();
  /** This process's id: its own notices come back through LISTEN and are skipped. */
  readonly origin = randomBytes(8).toString('hex');
  private listener?: Client;
  private closed = false;
  private retry?: NodeJS.Timeout;
  /** Notices received from other instances (test/scale/shared-state.spec.ts reads it). */
  received = 0;

  constructor(private readonly db: Pick<Database, 'kind'> & { url?: string }) {}

  /** Whether other instances may share the database (PostgreSQL; the embedded one has a single process). */
  get shared(): boolean {
    return this.db.kind === 'postgres';
  }

  /** Registers a handler for a topic (e.g. 'brand', 'counts'); `key` null means "all of it". */
  on(topic: string, handler: SignalHandler): void {
    const list = this.handlers.get(topic) ?? [];
    list.push(handler);
    this.handlers.set(topic, list);
  }

  /** Starts listening (PostgreSQL only). Resolves once LISTEN is in place. */
  async start(): Promise<void> {
    if (this.db.kind !== 'postgres' || !this.db.url || this.listener) return;
    await this.connect(false);
  }

  private async connect(reconnecting: boolean): Promise<void> {
    const client = new Client({ connectionString: this.db.url });
    client.on('notification', (msg) => {
      if (msg.channel !== SIGNAL_CHANNEL || !msg.payload) return;
      this.receive(msg.payload);
    });
    client.on('error', (e) => {
      this.logger.warn(`Signal connection failed: ${e.message}; reconnecting`);
      this.scheduleReconnect(client);
    });
    client.on('end', () => this.scheduleReconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${SIGNAL_CHANNEL}`);
    } catch (e) {
      await client.end().catch(() => undefined);
      if (!reconnecting) throw e;
      this.logger.warn(`Signal connection failed: ${(e as Error).message}; retrying`);
      this.scheduleReconnect(undefined);
      return;
    }
    this.listener = client;
    // Anything published while we were not listening is unknown: drop every cache.
    if (reconnecting) this.runAll(null);
  }

  private scheduleReconnect(client: Client | undefined): void {
    if (this.closed || this.retry) return;
    if (client && this.listener !== client) return;
    this.listener = undefined;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect(true);
    }, 1000);
    this.retry.unref();
  }

  private receive(payload: string): void {
    let signal: Signal;
    try {
      signal = JSON.parse(payload) as Signal;
    } catch {
      return;
    }
    if (typeof signal?.t !== 'string' || signal.o === this.origin) return;
    this.received++;
    this.run(signal.t, typeof signal.k === 'string' ? signal.k : null);
  }

  private run(topic: string, key: string | null): void {
    for (const handler of this.handlers.get(topic) ?? []) {
      try {
        handler(key);
      } catch (e) {
        this.logger.warn(`Signal handler for ${topic} failed: ${(e as Error).message}`);
      }
    }
  }

  private runAll(key: null): void {
    for (const topic of this.handlers.keys()) this.run(topic, key);
  }

  private payload(topic: string, key: string | null | undefined): string {
    const k = key != null && key.length <= MAX_KEY_CHARS ? key : null;
    return JSON.stringify({ t: topic, k, o: this.origin } satisfies Signal);
  }

  /** Drops `topic` (or one `key` of it) here at once and in every other instance. */
  async publish(topic: string, key?: string | null): Promise<void> {
    this.run(topic, key ?? null);
    if (this.db.kind !== 'postgres') return;
    // Through a pool's connection (any connection may NOTIFY); a failure only delays others' view.
    await this.notifyWith((sql, params) => this.pool!(sql, params), topic, key);
  }

  /**
   * The same inside a transaction: the other instances hear it when the transaction commits. The
   * local handlers run now (dropping a cache early only costs a re-read).
   */
  async publishIn(
    manager: Pick<EntityManager, 'query'> | { query(sql: string, params: unknown[]): Promise<unknown> },
    topic: string,
    key?: string | null,
  ): Promise<void> {
    this.run(topic, key ?? null);
    if (this.db.kind !== 'postgres') return;
    await this.notifyWith((sql, params) => manager.query(sql, params), topic, key);
  }

  /** Set by the module: how to send one statement through the pool. */
  pool?: (sql: string, params: unknown[]) => Promise<unknown>;

  private async notifyWith(query: (sql: string, params: unknown[]) => Promise<unknown>, topic: string, key: string | null | undefined): Promise<void> {
    try {
      await query(`SELECT pg_notify($1, $2)`, [SIGNAL_CHANNEL, this.payload(topic, key)]);
    } catch (e) {
      this.logger.warn(`Could not signal ${topic}: ${(e as Error).message}`);
    }
  }

  /**
   * Whether the database answers, asked on this instance's own LISTEN connection (PostgreSQL): a
   * readiness probe must not wait behind the requests queued for the pool, or a busy but healthy
   * instance looks dead to the load balancer. Undefined when there is no such connection (embedded
   * database, or not connected right now): the caller asks the pool.
   */
  async ping(): Promise<true | undefined> {
    const l = this.listener;
    if (!l) return undefined;
    await l.query('SELECT 1');
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const l = this.listener;
    this.listener = undefined;
    await l?.end().catch(() => undefined);
  }
}
