import { Inject, Injectable } from '@nestjs/common';
import { DATA_SOURCE } from '../../database/database.module';
import type { Client } from 'pg';
import type { DataSource } from 'typeorm';
import type { SystemJob } from '../../common/system-job';

/**
 * Who the live events' SQL runs for: the publishing instance's fan-out (no user: the recipients
 * were chosen by the caller, each under its own tenancy rules, before the event is published).
 */
export interface LiveFanOut extends SystemJob {
  readonly job: 'live-events';
}

export const LIVE_FAN_OUT: LiveFanOut = { job: 'live-events' };

/**
 * The SQL of live events (live-events.service.ts): event bodies stored in live_event, NOTIFYs that
 * carry their ids to every instance, and the sweep of old bodies. The fan-out identity comes first.
 */
@Injectable()
export class LiveEventsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async listen(_job: LiveFanOut, client: Client, channel: string): Promise<void> {
    await client.query(`LISTEN ${channel}`);
  }

  async store(_job: LiveFanOut, event_id: string, payload: string): Promise<void> {
    await this.ds.query(`INSERT INTO live_event (event_id, payload) VALUES ($1, $2)`, [event_id, payload]);
  }

  /** The stored body of an event, undefined once swept. */
  async load(_job: LiveFanOut, event_id: string): Promise<string | undefined> {
    const [row] = await this.ds.query<{ payload: string }[]>(`SELECT payload FROM live_event WHERE event_id = $1`, [event_id]);
    return row?.payload;
  }

  async notify(_job: LiveFanOut, channel: string, payload: string): Promise<void> {
    await this.ds.query(`SELECT pg_notify($1, $2)`, [channel, payload]);
  }

  /** Removes bodies older than `minutes`. */
  async sweep(_job: LiveFanOut, minutes: number): Promise<void> {
    await this.ds.query(`DELETE FROM live_event WHERE created_at < now() - make_interval(mins => $1)`, [minutes]);
  }
}
