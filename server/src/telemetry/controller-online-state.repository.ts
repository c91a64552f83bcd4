import { Inject, Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { ControllerOnlineStateName } from '../../../shared/common/enums';
import type { SystemJob } from '../common/system-job';
import { DATA_SOURCE } from '../database/database.module';
import { withPgTransaction } from '../database/pg-transaction';
import type { Step } from './online-state-rules';

/** A transaction of the presence machine (one controller's step). */
export type PresenceTx = Pick<PoolClient, 'query'>;

/** A controller's presence as stored (every column null before its first contact). */
export interface PresenceRow {
  controller_id: string;
  online_state: ControllerOnlineStateName | null;
  last_seen_at: Date | null;
  state_since: Date | null;
  online_since: Date | null;
  dropouts: Date[] | null;
}

/**
 * The SQL of controllers' online state (telemetry/online-state-rules.ts decides): presence rows
 * (`controller_presence`), the current state (`controller_online_state`) and one history row per
 * transition (`controller_online_state_history`). Contacts and sweeps are background work of the
 * presence machine, for every company: they take its job identity first. A step runs under a lock
 * on the controller's row, taken in the step's transaction.
 */
@Injectable()
export class ControllerOnlineStateRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  transaction<T>(work: (tx: PresenceTx) => Promise<T>): Promise<T> {
    return withPgTransaction(this.ds, work);
  }

  /**
   * In the step's transaction: locks the controller row (NO KEY UPDATE: foreign-key checks still
   * pass; `skipLocked`: answers nothing when another instance holds it) and reads its presence.
   * Undefined when there is no such controller.
   */
  async lock(_job: SystemJob, tx: PresenceTx, controller_id: string, skipLocked: boolean): Promise<PresenceRow | undefined> {
    const { rows } = await tx.query(
      `SELECT c.controller_id, s.online_state, p.last_seen_at, p.state_since, p.online_since, p.dropouts
         FROM controller c
         LEFT JOIN controller_presence p ON p.controller_id = c.controller_id
         LEFT JOIN controller_online_state s ON s.controller_id = c.controller_id
        WHERE c.controller_id = $1
        FOR NO KEY UPDATE OF c${skipLocked ? ' SKIP LOCKED' : ''}`,
      [controller_id],
    );
    return rows[0] as PresenceRow | undefined;
  }

  /** In the step's transaction: the new presence, and on a transition the state and its history row (`transport` kept when none is given). */
  async store(_job: SystemJob, tx: PresenceTx, controller_id: string, step: Step, transport: string | undefined): Promise<void> {
    const n = step.next;
    await tx.query(
      `INSERT INTO controller_presence (controller_id, last_seen_at, state_since, online_since, dropouts, last_transport)
       VALUES ($1, $2, $3, $4, $5::timestamptz[], $6)
       ON CONFLICT (controller_id) DO UPDATE SET
         last_seen_at = EXCLUDED.last_seen_at, state_since = EXCLUDED.state_since, online_since = EXCLUDED.online_since,
         dropouts = EXCLUDED.dropouts, last_transport = COALESCE(EXCLUDED.last_transport, controller_presence.last_transport)`,
      [controller_id, n.last_seen_at, n.state_since, n.online_since, n.dropouts.map((d) => d.toISOString()), transport ?? null],
    );
    if (!step.transition) return;
    await tx.query(
      `INSERT INTO controller_online_state (controller_id, online_state) VALUES ($1, $2)
       ON CONFLICT (controller_id) DO UPDATE SET online_state = EXCLUDED.online_state`,
      [controller_id, step.transition.state],
    );
    await tx.query(
      `INSERT INTO controller_online_state_history (controller_id, "timestamp", online_state) VALUES ($1, $2, $3)
       ON CONFLICT (controller_id, "timestamp") DO UPDATE SET online_state = EXCLUDED.online_state`,
      [controller_id, step.transition.at, step.transition.state],
    );
  }

  /** Controllers with a state but no contact recorded yet: their grace period starts `now`. */
  async startGrace(_job: SystemJob, now: Date): Promise<void> {
    await this.ds.query(
      `INSERT INTO controller_presence (controller_id, last_seen_at, state_since, online_since)
       SELECT s.controller_id, $1, $1, CASE WHEN s.online_state = 'OFFLINE' THEN NULL ELSE $1::timestamptz END
         FROM controller_online_state s
        WHERE NOT EXISTS (SELECT 1 FROM controller_presence p WHERE p.controller_id = s.controller_id)
       ON CONFLICT DO NOTHING`,
      [now],
    );
  }

  /** Controllers a sweep looks at: not OFFLINE and silent since `offlineBefore`, or UNSTABLE. */
  async sweepCandidates(_job: SystemJob, offlineBefore: Date): Promise<string[]> {
    const rows = await this.ds.query<{ controller_id: string }[]>(
      `SELECT p.controller_id
         FROM controller_presence p
         JOIN controller_online_state s ON s.controller_id = p.controller_id
        WHERE (s.online_state <> 'OFFLINE' AND p.last_seen_at <= $1) OR s.online_state = 'UNSTABLE'`,
      [offlineBefore],
    );
    return rows.map((r) => r.controller_id);
  }
}
