import { hostname } from 'node:os';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** How rows came in (the `transport` label). */
export type IngestTransport = 'http' | 'mqtt' | 'direct';

/**
 * Why rows were not stored (the `reason` label): a fixed list, never the row's own text.
 * - `invalid`: the row failed its checks (the answer's `rejected` list);
 * - `duplicate`: the same row was stored before (ON CONFLICT DO NOTHING);
 * - `database_refused`: the database refused the whole batch (422, sending it again will not help);
 * - `not_stored`: the database could not be written (503, the sender retries).
 */
export type IngestRefusal = 'invalid' | 'duplicate' | 'database_refused' | 'not_stored';

/** The instance name of the `instance` label: INSTANCE_NAME, else `<hostname>:<pid>`. */
export function instanceName(configured?: string): string {
  return configured || `${hostname()}:${process.pid}`;
}

/** Buckets of portal_http_request_duration_seconds: 5 ms … 10 s. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The Prometheus registry of one application (docs/metrics.md): default process metrics and the
 * portal's own series, every one labelled `instance`. Lives in common/ so any domain can count
 * without importing upward; what is read at scrape time (outbox, commands, engine timers, live
 * streams) is set by the health folder just before the text is rendered.
 *
 * One registry per application (not prom-client's global one), so several applications in one
 * process (tests) keep their counts apart.
 */
export class PortalMetrics {
  readonly registry = new Registry();
  readonly instance: string;

  readonly ingestRows: Counter<'transport'>;
  readonly ingestRefusedRows: Counter<'transport' | 'reason'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status_class'>;
  readonly mqttSessionsRetired: Counter;

  // Set at scrape time (health/metrics.controller.ts).
  readonly engineLag: Gauge;
  readonly engineQueue: Gauge;
  readonly ingestBacklog: Gauge;
  readonly outboxDepth: Gauge<'kind'>;
  readonly outboxOldestAge: Gauge;
  readonly commands: Gauge<'state'>;
  readonly liveStreams: Gauge;
  readonly mqttConnected: Gauge;
  readonly metricErrors: Gauge<'source'>;

  constructor(instance: string, options: { defaultMetrics?: boolean } = {}) {
    this.instance = instance;
    this.registry.setDefaultLabels({ instance });
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    this.ingestRows = new Counter({
      name: 'portal_ingest_rows_total',
      help: 'Telemetry and state rows stored, by transport.',
      labelNames: ['transport'],
      registers,
    });
    this.ingestRefusedRows = new Counter({
      name: 'portal_ingest_refused_rows_total',
      help: 'Rows received but not stored, by transport and reason (invalid, duplicate, database_refused, not_stored).',
      labelNames: ['transport', 'reason'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'HTTP request durations, by method, route pattern or tRPC procedure, and status class.',
      labelNames: ['method', 'route', 'status_class'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.mqttSessionsRetired = new Counter({
      name: 'portal_mqtt_sessions_retired_total',
      help: 'Sessions of dead MQTT members (lease lapsed) this instance took over, drained and ended.',
      registers,
    });
    this.engineLag = new Gauge({
      name: 'portal_engine_lag_seconds',
      help: 'Age of the oldest due trigger timer not yet judged (0 when none is due).',
      registers,
    });
    this.engineQueue = new Gauge({ name: 'portal_engine_queue_samples', help: "Samples waiting in this instance's alert engine queue.", registers });
    this.ingestBacklog = new Gauge({ name: 'portal_ingest_backlog_rows', help: 'Rows waiting for their batch to be written on this instance.', registers });
    this.outboxDepth = new Gauge({
      name: 'portal_outbox_depth',
      help: 'Alert outbox entries not yet done (PENDING or SENDING), by kind (event, delivery).',
      labelNames: ['kind'],
      registers,
    });
    this.outboxOldestAge = new Gauge({ name: 'portal_outbox_oldest_age_seconds', help: 'Age of the oldest PENDING alert event (0 when none).', registers });
    this.commands = new Gauge({ name: 'portal_commands', help: 'Controller commands in the database, by state.', labelNames: ['state'], registers });
    this.liveStreams = new Gauge({ name: 'portal_live_streams', help: 'Live event streams (SSE) open on this instance.', registers });
    this.mqttConnected = new Gauge({
      name: 'portal_mqtt_connected',
      help: '1 when this instance is connected and subscribed to the external MQTT broker (MQTT_URL), else 0.',
      registers,
    });
    this.metricErrors = new Gauge({
      name: 'portal_metric_errors',
      help: '1 when a scrape-time read failed or timed out in this scrape (its series keep their last value), by source.',
      labelNames: ['source'],
      registers,
    });
    // Present from the first scrape (a rate over a counter that appears late misses its first rows).
    for (const transport of ['http', 'mqtt'] as const) this.ingestRows.inc({ transport }, 0);
  }

  /** Counts one ingest answer: stored rows, and the rows not stored with why. */
  countIngest(transport: IngestTransport, stored: number, refused: Partial<Record<IngestRefusal, number>> = {}): void {
    if (stored > 0) this.ingestRows.inc({ transport }, stored);
    else this.ingestRows.inc({ transport }, 0);
    for (const [reason, n] of Object.entries(refused)) if (n && n > 0) this.ingestRefusedRows.inc({ transport, reason }, n);
  }

  /** Prometheus text exposition of every series. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
