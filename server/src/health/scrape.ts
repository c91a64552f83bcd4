import { Injectable, Logger } from '@nestjs/common';
import { CONTROLLER_COMMAND_STATUSES } from '../../../shared/common/enums';
import { PortalMetrics } from '../common/metrics';
import { systemJob } from '../common/system-job';
import { AlertEngine } from '../alerts/engine/alert-engine.worker';
import { LiveEventsService } from '../alerts/portal/live-events.service';
import { IngestService } from '../telemetry/ingest.service';
import { MqttIngestService } from '../gateway/mqtt-ingest.service';
import { HealthRepository } from './health.repository';
import { within } from './readiness';

const SCRAPE = systemJob('metrics-scrape');

/** Longest wait for each scrape-time read; past it the series keep their last value and portal_metric_errors says so. */
export const SCRAPE_READ_MS = 2000;

/**
 * Sets the series read at scrape time: in-memory figures of this instance (engine queue, ingest
 * backlog, open live streams, the external broker's connection) and three bounded reads of the
 * shared database (one query each, time-limited, counts only). A failed or slow read never fails
 * the scrape: it sets portal_metric_errors{source} to 1 and leaves its series as they were.
 */
@Injectable()
export class ScrapeReader {
  private readonly logger = new Logger('Metrics');

  constructor(
    private readonly health: HealthRepository,
    private readonly metrics: PortalMetrics,
    private readonly engine: AlertEngine,
    private readonly ingest: IngestService,
    private readonly live: LiveEventsService,
    private readonly mqtt: MqttIngestService,
  ) {}

  async refresh(): Promise<void> {
    const m = this.metrics;
    m.engineQueue.set(this.engine.queuedSamples);
    m.ingestBacklog.set(this.ingest.backlog);
    m.liveStreams.set(this.live.openStreams);
    m.mqttConnected.set(this.mqtt.mode === 'external' && this.mqtt.brokerState === 'up' ? 1 : 0);
    await Promise.all([
      this.read('outbox', async () => {
        const r = await this.health.outboxDepth(SCRAPE);
        m.outboxDepth.set({ kind: 'event' }, Number(r.events));
        m.outboxDepth.set({ kind: 'delivery' }, Number(r.deliveries));
        m.outboxOldestAge.set(Math.max(0, Number(r.oldest)));
      }),
      this.read('commands', async () => {
        const counts = await this.health.commandsByStatus(SCRAPE);
        // The fixed list only: a label value never comes from the table itself.
        for (const state of CONTROLLER_COMMAND_STATUSES) m.commands.set({ state }, counts.get(state) ?? 0);
      }),
      this.read('engine_timers', async () => {
        m.engineLag.set(Math.max(0, await this.health.engineTimerLag(SCRAPE)));
      }),
    ]);
  }

  private async read(source: string, run: () => Promise<void>): Promise<void> {
    try {
      await within(run(), SCRAPE_READ_MS);
      this.metrics.metricErrors.set({ source }, 0);
    } catch (error) {
      this.metrics.metricErrors.set({ source }, 1);
      this.logger.warn(`metrics: could not read ${source}: ${(error as Error).message}`);
    }
  }
}
