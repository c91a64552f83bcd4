import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '../database/database.module';
import type { SystemJob } from '../common/system-job';

/** Depth of the alert outbox: events and deliveries waiting or being sent, and the oldest waiting event's age. */
export interface OutboxDepth {
  events: number;
  deliveries: number;
  /** Seconds. */
  oldest: number;
}

/**
 * The SQL of the health endpoints (the probe and the scrape, a job of the instance itself, first
 * parameter): counts over every company's rows on purpose, never a row itself, so nothing is
 * scoped by company and no label value comes from a table.
 */
@Injectable()
export class HealthRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /** The database answers (through the pool). */
  async ping(_job: SystemJob): Promise<void> {
    await this.ds.query('SELECT 1');
  }

  async outboxDepth(_job: SystemJob): Promise<OutboxDepth> {
    const [r] = await this.ds.query<OutboxDepth[]>(
      `SELECT (SELECT count(*) FROM notification_trigger_event WHERE status IN ('PENDING', 'SENDING'))::int AS events,
              (SELECT count(*) FROM notification_delivery WHERE status IN ('PENDING', 'SENDING'))::int AS deliveries,
              COALESCE(EXTRACT(EPOCH FROM (now() - (SELECT min(created_at) FROM notification_trigger_event WHERE status = 'PENDING'))), 0)::float8 AS oldest`,
    );
    return { events: Number(r.events), deliveries: Number(r.deliveries), oldest: Number(r.oldest) };
  }

  /** Controller commands per status (statuses without a command are absent). */
  async commandsByStatus(_job: SystemJob): Promise<Map<string, number>> {
    const rows = await this.ds.query<{ state: string; n: number }[]>(
      `SELECT status::text AS state, count(*)::int AS n FROM controller_command GROUP BY status`,
    );
    return new Map(rows.map((r) => [r.state, Number(r.n)]));
  }

  /** Seconds the most overdue alert timer is late (0 when none is due). */
  async engineTimerLag(_job: SystemJob): Promise<number> {
    const [r] = await this.ds.query<{ lag: number }[]>(
      `SELECT COALESCE(EXTRACT(EPOCH FROM (now() - min(next_execution))), 0)::float8 AS lag
         FROM notification_trigger_status WHERE next_execution <= now()`,
    );
    return Number(r.lag);
  }
}
