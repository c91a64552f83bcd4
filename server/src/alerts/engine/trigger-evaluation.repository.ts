import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import type { NextExecutionTriggerValue, TriggerLogProcessingStatusValue } from '../../../../shared/common/enums';
import { runningMuteSql } from '../../controllers/device-mute.entity';
import type { TTriggerEventValue } from '../../../../shared/alerts/rules';
import type { StatusRow } from './alert-engine.repository';
import type { JobIdentity } from './job-identity';
import type { SampleValue, TriggerStateName } from './rule-step';

/** A NotificationTriggerLog row (its key is (log_cuid, timestamp): the log table is partitioned). */
export interface TriggerLogRow {
  log_cuid: string;
  ts: Date;
  trigger_cuid: string;
  processing_status: TriggerLogProcessingStatusValue;
  trigger_state: TriggerStateName;
  query: Record<string, unknown>;
  next_execution: Date | null;
  via: NextExecutionTriggerValue;
}

/** A PENDING NotificationTriggerEvent (the outbox row of a state change). */
export interface TriggerEventRow {
  event_cuid: string;
  ts: Date;
  log_cuid: string;
  trigger_cuid: string;
  value: TTriggerEventValue;
}

/** The status row after an evaluation; null processing_status / log keep the stored ones. */
export interface StatusWrite {
  trigger_cuid: string;
  state: TriggerStateName;
  state_since: Date | null;
  processing_status: TriggerLogProcessingStatusValue | null;
  log_cuid: string | null;
  log_timestamp: Date | null;
  evaluated_at: Date | null;
  evaluated_until: Date | null;
  pending_state: TriggerStateName | null;
  pending_since: Date | null;
  last_value: SampleValue;
  next_execution: Date | null;
  via: NextExecutionTriggerValue;
}

/** Names an event shows, as stored (the system's even when the device or parameter is gone). */
export interface TriggerNamesRow {
  system: string;
  timezone: string;
  device: string | null;
  description: string | null;
  unit: string | null;
}

/** A controller of a system, with its online state and when it last went OFFLINE. */
export interface ControllerStateRow {
  controller_id: string;
  name: string;
  online_state: string | null;
  offline_since: Date | null;
}

/**
 * The SQL of one evaluation under the status row's lock (docs/alerts.md, "The trigger engine"):
 * every method runs in the caller's transaction `c` (taken explicitly) and takes the job's identity
 * first. The engine acts for the system; what it reads is bounded by the trigger's own keys (its
 * system, device, parameter, controllers), which the write check keeps inside the trigger's system.
 */
export interface TriggerEvaluationRepository {
  /** Locks the trigger row (FOR KEY SHARE: a delete waits) while it is active; false when gone or paused. */
  lockActiveTrigger(job: JobIdentity, c: PoolClient, trigger_cuid: string): Promise<boolean>;
  /** The trigger's status row, made if missing, locked FOR UPDATE. */
  lockStatus(job: JobIdentity, c: PoolClient, trigger_cuid: string): Promise<StatusRow>;
  /** Device time of the newest stored value of a series, null when none. */
  lastStoredAt(job: JobIdentity, c: PoolClient, entity_cuid: string, parameter_id: string): Promise<Date | null>;
  insertLog(job: JobIdentity, c: PoolClient, log: TriggerLogRow): Promise<void>;
  insertEvent(job: JobIdentity, c: PoolClient, event: TriggerEventRow): Promise<void>;
  writeStatus(job: JobIdentity, c: PoolClient, status: StatusWrite): Promise<void>;
  /** The stored state of a trigger, undefined without a status row. */
  stateOf(job: JobIdentity, c: PoolClient, trigger_cuid: string): Promise<TriggerStateName | undefined>;
  /** Points the status at a PROCESSING_ERROR log row (state unchanged). */
  markFailed(job: JobIdentity, c: PoolClient, trigger_cuid: string, log_cuid: string, log_timestamp: Date): Promise<void>;
  /** Whether a mute of the device runs now (started, not ended, not past its end) at the database's time. */
  deviceMuted(job: JobIdentity, c: PoolClient, entity_cuid: string): Promise<boolean>;
  /** The system's name and timezone, with the device's name and the parameter's description and unit (by key). */
  namesOf(job: JobIdentity, c: PoolClient, system_cuid: string, entity_cuid: string | null, parameter_id: string | null): Promise<TriggerNamesRow | undefined>;
  /** The controllers of a system (or the one named, if it is of the system). */
  controllersOf(job: JobIdentity, c: PoolClient, system_cuid: string, controller_id: string | null): Promise<ControllerStateRow[]>;
}

@Injectable()
export class SqlTriggerEvaluationRepository implements TriggerEvaluationRepository {
  async lockActiveTrigger(_job: JobIdentity, c: PoolClient, trigger_cuid: string): Promise<boolean> {
    const { rows } = await c.query(`SELECT 1 FROM notification_trigger WHERE trigger_cuid = $1 AND is_active FOR KEY SHARE`, [trigger_cuid]);
    return rows.length > 0;
  }

  async lockStatus(_job: JobIdentity, c: PoolClient, trigger_cuid: string): Promise<StatusRow> {
    await c.query(`INSERT INTO notification_trigger_status (trigger_cuid) VALUES ($1) ON CONFLICT DO NOTHING`, [trigger_cuid]);
    const { rows } = await c.query<StatusRow>(`SELECT * FROM notification_trigger_status WHERE trigger_cuid = $1 FOR UPDATE`, [trigger_cuid]);
    return rows[0];
  }

  async lastStoredAt(_job: JobIdentity, c: PoolClient, entity_cuid: string, parameter_id: string): Promise<Date | null> {
    const { rows } = await c.query<{ ts: Date | null }>(`SELECT max("timestamp") AS ts FROM parameter_log WHERE entity_cuid = $1 AND parameter_id = $2`, [
      entity_cuid,
      parameter_id,
    ]);
    return rows[0]?.ts ? new Date(rows[0].ts) : null;
  }

  async insertLog(_job: JobIdentity, c: PoolClient, log: TriggerLogRow): Promise<void> {
    await c.query(
      `INSERT INTO notification_trigger_log (log_cuid, "timestamp", trigger_cuid, processing_status, trigger_state, query, next_execution, next_execution_trigger)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)`,
      [log.log_cuid, log.ts, log.trigger_cuid, log.processing_status, log.trigger_state, JSON.stringify(log.query), log.next_execution, log.via],
    );
  }

  async insertEvent(_job: JobIdentity, c: PoolClient, event: TriggerEventRow): Promise<void> {
    await c.query(
      `INSERT INTO notification_trigger_event (event_cuid, "timestamp", log_cuid, value, trigger_cuid, status) VALUES ($1, $2, $3, $4::jsonb, $5, 'PENDING')`,
      [event.event_cuid, event.ts, event.log_cuid, JSON.stringify(event.value), event.trigger_cuid],
    );
  }

  async writeStatus(_job: JobIdentity, c: PoolClient, s: StatusWrite): Promise<void> {
    await c.query(
      `UPDATE notification_trigger_status SET trigger_state = $2, state_since = $3, processing_status = COALESCE($4, processing_status),
              log_cuid = COALESCE($5, log_cuid), log_timestamp = COALESCE($6, log_timestamp), evaluated_at = $7, evaluated_until = $8,
              pending_state = $9, pending_since = $10, last_value = $11::jsonb, next_execution = $12, next_execution_trigger = $13
        WHERE trigger_cuid = $1`,
      [
        s.trigger_cuid,
        s.state,
        s.state_since,
        s.processing_status,
        s.log_cuid,
        s.log_timestamp,
        s.evaluated_at,
        s.evaluated_until,
        s.pending_state,
        s.pending_since,
        JSON.stringify(s.last_value),
        s.next_execution,
        s.via,
      ],
    );
  }

  async stateOf(_job: JobIdentity, c: PoolClient, trigger_cuid: string): Promise<TriggerStateName | undefined> {
    const { rows } = await c.query<{ trigger_state: TriggerStateName }>(`SELECT trigger_state FROM notification_trigger_status WHERE trigger_cuid = $1`, [
      trigger_cuid,
    ]);
    return rows[0]?.trigger_state;
  }

  async markFailed(_job: JobIdentity, c: PoolClient, trigger_cuid: string, log_cuid: string, log_timestamp: Date): Promise<void> {
    await c.query(`UPDATE notification_trigger_status SET processing_status = 'PROCESSING_ERROR', log_cuid = $2, log_timestamp = $3 WHERE trigger_cuid = $1`, [
      trigger_cuid,
      log_cuid,
      log_timestamp,
    ]);
  }

  async deviceMuted(_job: JobIdentity, c: PoolClient, entity_cuid: string): Promise<boolean> {
    const { rows } = await c.query(`SELECT 1 FROM device_mute m WHERE m.entity_cuid = $1 AND ${runningMuteSql('m')} LIMIT 1`, [entity_cuid]);
    return rows.length > 0;
  }

  async namesOf(
    _job: JobIdentity,
    c: PoolClient,
    system_cuid: string,
    entity_cuid: string | null,
    parameter_id: string | null,
  ): Promise<TriggerNamesRow | undefined> {
    const { rows } = await c.query<TriggerNamesRow>(
      `SELECT s.name AS system, s.timezone, e.name AS device, lp.description, u.unit
         FROM system s
         LEFT JOIN entity e ON e.entity_cuid = $2
         LEFT JOIN log_parameter lp ON lp.parameter_id = $3
         LEFT JOIN unit u ON u.unit_cuid = lp.unit_cuid
        WHERE s.system_cuid = $1`,
      [system_cuid, entity_cuid, parameter_id],
    );
    return rows[0];
  }

  async controllersOf(_job: JobIdentity, c: PoolClient, system_cuid: string, controller_id: string | null): Promise<ControllerStateRow[]> {
    const { rows } = await c.query<ControllerStateRow>(
      `SELECT c.controller_id, c.name, s.online_state::text AS online_state,
              (SELECT max(h."timestamp") FROM controller_online_state_history h WHERE h.controller_id = c.controller_id AND h.online_state = 'OFFLINE') AS offline_since
         FROM controller c
         LEFT JOIN controller_online_state s ON s.controller_id = c.controller_id
        WHERE c.system_cuid = $1 AND ($2::varchar IS NULL OR c.controller_id = $2)`,
      [system_cuid, controller_id],
    );
    return rows;
  }
}
