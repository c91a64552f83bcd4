import { Inject, Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { NextExecutionTriggerValue } from '../../../../shared/common/enums';
import { DATA_SOURCE } from '../../database/database.module';
import { withPgTransaction } from '../../database/pg-transaction';
import type { JobIdentity } from './job-identity';
import type { SampleValue, TriggerStateName } from './rule-step';
import { updatedRows } from '../../database/returned-rows';
import type { TriggerRow } from './trigger-index';

/** A notification_trigger_status row as the engine reads it. */
export interface StatusRow {
  trigger_cuid: string;
  trigger_state: TriggerStateName;
  state_since: Date | null;
  pending_state: TriggerStateName | null;
  pending_since: Date | null;
  evaluated_until: Date | null;
  evaluated_at: Date | null;
  last_value: SampleValue | object;
  next_execution: Date | null;
}

/** The status row a new trigger starts with. */
export interface NewStatus {
  trigger_cuid: string;
  next_execution: Date | null;
  via: NextExecutionTriggerValue;
}

/** A quiet trigger's progress, written only while the row is still as `state` / `state_since` say. */
export interface QuietProgress {
  trigger_cuid: string;
  evaluated_until: Date | null;
  last_value: SampleValue;
  next_execution: Date | null;
  no_data: boolean;
  state: TriggerStateName;
  state_since: Date | null;
}

/** What a threshold / no_data trigger watches. */
export interface WatchedSeries {
  trigger_cuid: string;
  entity_cuid: string;
  parameter_id: string;
}

/** A stored value of a watched series, by trigger. */
export interface StoredSample {
  trigger_cuid: string;
  ts: Date;
  value: number;
}

/**
 * The engine's SQL outside one evaluation (docs/alerts.md, "The trigger engine"): the active
 * triggers and their statuses, the index fingerprint, quiet progress, stored values read back, and
 * the timer's claim. Every method takes the job's identity first (the engine acts for the system:
 * it reads every company's triggers); the claim runs in the caller's transaction, taken explicitly.
 */
export interface AlertEngineRepository {
  /** A transaction on one pooled connection (the claim and its evaluations commit together). */
  transaction<T>(job: JobIdentity, work: (c: PoolClient) => Promise<T>): Promise<T>;
  /** Active triggers, by key. */
  activeTriggers(job: JobIdentity): Promise<TriggerRow[]>;
  /** Status rows of active triggers. */
  activeStatuses(job: JobIdentity): Promise<StatusRow[]>;
  /** Inserts the status rows missing (a concurrent insert wins); answers the rows inserted. */
  insertStatuses(job: JobIdentity, rows: readonly NewStatus[]): Promise<StatusRow[]>;
  /** A fingerprint of every trigger's key, activity and args (count:hash). */
  fingerprint(job: JobIdentity): Promise<string>;
  /**
   * Moves evaluated_until (and a no_data rule's next_execution) forward for the rows still as the
   * items say (same state since the same time, nothing pending, not judged further; no_data:
   * RELEASED). Answers the triggers written.
   */
  writeQuietProgress(job: JobIdentity, items: readonly QuietProgress[], at: Date): Promise<string[]>;
  /** Stored values after each trigger's evaluated_until (else its creation), oldest first, at most `limit` per trigger. */
  storedAfter(job: JobIdentity, series: readonly WatchedSeries[], limit: number): Promise<StoredSample[]>;
  /** The system of a controller, null when it has none or does not exist. */
  systemOfController(job: JobIdentity, controller_id: string): Promise<string | null>;
  /** Claims due status rows (next_execution <= now) with FOR UPDATE SKIP LOCKED, in `c`'s transaction. */
  claimDue(job: JobIdentity, c: PoolClient, now: Date, limit: number): Promise<StatusRow[]>;
  /** Nothing to wait for: the row leaves the timer. */
  clearNextExecution(job: JobIdentity, c: PoolClient, trigger_cuid: string): Promise<void>;
}

@Injectable()
export class SqlAlertEngineRepository implements AlertEngineRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  transaction<T>(_job: JobIdentity, work: (c: PoolClient) => Promise<T>): Promise<T> {
    return withPgTransaction(this.ds, work);
  }

  async activeTriggers(_job: JobIdentity): Promise<TriggerRow[]> {
    return await this.ds.query<TriggerRow[]>(
      `SELECT trigger_cuid, system_cuid, created_at, args FROM notification_trigger WHERE is_active ORDER BY trigger_cuid`,
    );
  }

  async activeStatuses(_job: JobIdentity): Promise<StatusRow[]> {
    return await this.ds.query<StatusRow[]>(
      `SELECT s.* FROM notification_trigger_status s JOIN notification_trigger t ON t.trigger_cuid = s.trigger_cuid WHERE t.is_active`,
    );
  }

  async insertStatuses(_job: JobIdentity, rows: readonly NewStatus[]): Promise<StatusRow[]> {
    return await this.ds.query<StatusRow[]>(
      `INSERT INTO notification_trigger_status (trigger_cuid, next_execution, next_execution_trigger)
       SELECT u.id, u.next, u.via::next_execution_trigger FROM unnest($1::varchar[], $2::timestamptz[], $3::text[]) AS u(id, next, via)
       ON CONFLICT (trigger_cuid) DO NOTHING RETURNING *`,
      [rows.map((r) => r.trigger_cuid), rows.map((r) => r.next_execution), rows.map((r) => r.via)],
    );
  }

  async fingerprint(_job: JobIdentity): Promise<string> {
    const [r] = await this.ds.query<{ n: string; h: string }[]>(
      `SELECT count(*)::text AS n, COALESCE(sum(hashtext(trigger_cuid || is_active::text || args::text)::bigint), 0)::text AS h FROM notification_trigger`,
    );
    return `${r.n}:${r.h}`;
  }

  async writeQuietProgress(_job: JobIdentity, items: readonly QuietProgress[], at: Date): Promise<string[]> {
    if (!items.length) return [];
    const result: unknown = await this.ds.query(
      `UPDATE notification_trigger_status s
          SET evaluated_until = u.until, last_value = u.v::jsonb, evaluated_at = $6,
              next_execution = CASE WHEN u.no_data THEN u.next ELSE s.next_execution END,
              next_execution_trigger = CASE WHEN u.no_data THEN 'TIMER'::next_execution_trigger ELSE s.next_execution_trigger END
         FROM unnest($1::varchar[], $2::timestamptz[], $3::text[], $4::timestamptz[], $5::bool[], $7::text[], $8::timestamptz[]) AS u(id, until, v, next, no_data, state, since)
        WHERE s.trigger_cuid = u.id
          AND (s.evaluated_until IS NULL OR s.evaluated_until < u.until)
          AND s.trigger_state::text = u.state AND s.state_since IS NOT DISTINCT FROM u.since
          AND s.pending_state IS NULL AND (NOT u.no_data OR s.trigger_state = 'RELEASED')
        RETURNING s.trigger_cuid`,
      [
        items.map((i) => i.trigger_cuid),
        items.map((i) => i.evaluated_until),
        items.map((i) => JSON.stringify(i.last_value)),
        items.map((i) => i.next_execution),
        items.map((i) => i.no_data),
        at,
        items.map((i) => i.state),
        items.map((i) => i.state_since),
      ],
    );
    return updatedRows<{ trigger_cuid: string }>(result).map((r) => r.trigger_cuid);
  }

  async storedAfter(_job: JobIdentity, series: readonly WatchedSeries[], limit: number): Promise<StoredSample[]> {
    if (!series.length) return [];
    const rows = await this.ds.query<{ id: string; ts: Date; value: number }[]>(
      `SELECT w.id, p."timestamp" AS ts, p.value
         FROM unnest($1::varchar[], $2::varchar[], $3::varchar[]) AS w(id, e, p_id)
         JOIN notification_trigger t ON t.trigger_cuid = w.id
         LEFT JOIN notification_trigger_status s ON s.trigger_cuid = w.id
         CROSS JOIN LATERAL (
           SELECT "timestamp", value FROM parameter_log
            WHERE entity_cuid = w.e AND parameter_id = w.p_id AND "timestamp" > COALESCE(s.evaluated_until, t.created_at)
            ORDER BY "timestamp" LIMIT ${Math.trunc(limit)}) p
        ORDER BY w.id, p."timestamp"`,
      [series.map((w) => w.trigger_cuid), series.map((w) => w.entity_cuid), series.map((w) => w.parameter_id)],
    );
    return rows.map((r) => ({ trigger_cuid: r.id, ts: new Date(r.ts), value: Number(r.value) }));
  }

  async systemOfController(_job: JobIdentity, controller_id: string): Promise<string | null> {
    const [c] = await this.ds.query<{ system_cuid: string | null }[]>(`SELECT system_cuid FROM controller WHERE controller_id = $1`, [controller_id]);
    return c?.system_cuid ?? null;
  }

  async claimDue(_job: JobIdentity, c: PoolClient, now: Date, limit: number): Promise<StatusRow[]> {
    const { rows } = await c.query<StatusRow>(
      `SELECT st.* FROM notification_trigger_status st JOIN notification_trigger t ON t.trigger_cuid = st.trigger_cuid
        WHERE st.next_execution <= $1 ORDER BY st.next_execution LIMIT $2
        FOR UPDATE OF st SKIP LOCKED FOR KEY SHARE OF t SKIP LOCKED`,
      [now, limit],
    );
    return rows;
  }

  async clearNextExecution(_job: JobIdentity, c: PoolClient, trigger_cuid: string): Promise<void> {
    await c.query(`UPDATE notification_trigger_status SET next_execution = NULL WHERE trigger_cuid = $1`, [trigger_cuid]);
  }
}
