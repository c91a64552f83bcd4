import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Actor } from '../../../../shared/access/policy';
import { newCuid } from '../../common/ids';
import { DATA_SOURCE } from '../../database/database.module';
import { SqlRepository, type Transactional } from '../../database/repository';
import { SqlParams } from '../../database/sql-params';
import { visibleSystemSql } from '../../tenancy/visibility';
import { systemVisibleTo, triggerVisibleTo } from '../../tenancy/visible-records.repository';
import type { TActiveAlarm, THistoryInput, THistoryRow, TTriggerStatus } from './alarms.schema';

/** A mute still in force (NULL until = until unmuted), on notification_user_blacklist `b`. */
export const MUTE_IN_FORCE = `(b.until IS NULL OR b.until > now())`;

const HISTORY_ORDER: Record<THistoryInput['sort']['field'], string> = {
  timestamp: 'e."timestamp"',
  severity_level: 'COALESCE(n.severity_level, t.severity_level)',
  system_name: 's.name',
  trigger_name: 't.name',
  state: `e.value->>'state'`,
};

/** An active alarm as stored: the message is made from the delivered text or the template. */
export type ActiveAlarmRow = Omit<TActiveAlarm, 'message'> & { template: string; event_value: unknown; delivered: string | null };

/** A history row as stored: the message is made from the delivered text or the template. */
export type HistoryRowStored = Omit<THistoryRow, 'id' | 'message'> & { delivered: string | null; template: string };

/**
 * The SQL of the alarm screens (active alarms, history, acknowledgement, mutes, trigger status).
 * Every method takes the caller first and keeps the rows of systems the caller sees
 * (visibleSystemSql: owner company or a share); mutes and acknowledgements are only ever the
 * caller's own rows. No rules here: the service decides what a missing row means.
 */
export interface AlarmsRepository extends Transactional<AlarmsRepository> {
  /** Triggers now TRIGGERED (active ones) of visible systems (of one, when given), most severe first, at most 5,000. */
  active(actor: Actor, system_cuid?: string): Promise<ActiveAlarmRow[]>;
  /** State changes (TRIGGERED and RELEASED events) of visible triggers, filtered, one page, and how many in all. */
  history(actor: Actor, input: THistoryInput): Promise<{ rows: HistoryRowStored[]; total: number }>;
  /** Whether the notification is of a visible system's trigger. */
  notificationVisible(actor: Actor, notification_cuid: string): Promise<boolean>;
  /** Serialises the caller's acknowledgements of one notification until the transaction ends. */
  lockAcknowledgement(actor: Actor, notification_cuid: string): Promise<void>;
  /** When the caller first acknowledged the notification, undefined if never. */
  acknowledgedAt(actor: Actor, notification_cuid: string): Promise<Date | undefined>;
  /** Records the caller's acknowledgement now; answers its time. */
  insertAcknowledgement(actor: Actor, notification_cuid: string): Promise<Date>;
  /** Unscoped beyond the caller (the trigger checked first): the caller's mute of a trigger, replaced if there is one. */
  mute(actor: Actor, trigger_cuid: string, until: Date | null): Promise<void>;
  /** Unscoped beyond the caller (the trigger checked first): deletes the caller's mute. */
  unmute(actor: Actor, trigger_cuid: string): Promise<void>;
  /** Statuses of the visible triggers among those asked (RELEASED when never judged). */
  triggerStatuses(actor: Actor, trigger_cuids: readonly string[]): Promise<TTriggerStatus[]>;
  systemVisible(actor: Actor, system_cuid: string): Promise<boolean>;
  triggerVisible(actor: Actor, trigger_cuid: string): Promise<boolean>;
}

@Injectable()
export class SqlAlarmsRepository extends SqlRepository<AlarmsRepository> implements AlarmsRepository {
  constructor(@Inject(DATA_SOURCE) ds: DataSource) {
    super(ds);
  }

  async active(actor: Actor, system_cuid?: string): Promise<ActiveAlarmRow[]> {
    const p = new SqlParams([actor.user_cuid]);
    return (await this.db.query(
      `SELECT t.trigger_cuid, t.name AS trigger_name, t.severity_level::text AS severity_level, t.message AS template,
              t.system_cuid, s.name AS system_name, s.timezone, st.state_since AS since, st.last_value,
              e.value AS event_value, e.notification_cuid, n.message AS delivered,
              b.blacklist_cuid IS NOT NULL AS muted, b.until AS muted_until,
              (e.notification_cuid IS NOT NULL AND EXISTS (
                 SELECT 1 FROM notification_user_history h WHERE h.user_cuid = $1 AND h.notification_cuid = e.notification_cuid)) AS acknowledged
         FROM notification_trigger_status st
         JOIN notification_trigger t ON t.trigger_cuid = st.trigger_cuid
         JOIN system s ON s.system_cuid = t.system_cuid
         LEFT JOIN LATERAL (
              SELECT ev.value, ev.notification_cuid FROM notification_trigger_event ev
               WHERE ev.trigger_cuid = t.trigger_cuid AND ev.value->>'state' = 'TRIGGERED'
               ORDER BY ev."timestamp" DESC LIMIT 1) e ON true
         LEFT JOIN notification n ON n.notification_cuid = e.notification_cuid
         LEFT JOIN notification_user_blacklist b ON b.trigger_cuid = t.trigger_cuid AND b.user_cuid = $1 AND ${MUTE_IN_FORCE}
        WHERE st.trigger_state = 'TRIGGERED' AND t.is_active
          ${system_cuid ? `AND t.system_cuid = ${p.add(system_cuid)}` : ''}
          AND ${visibleSystemSql(actor, p, 's')}
        ORDER BY t.severity_level DESC, st.state_since DESC NULLS LAST, t.trigger_cuid
        LIMIT 5000`,
      p.values,
    )) as ActiveAlarmRow[];
  }

  async history(actor: Actor, input: THistoryInput): Promise<{ rows: HistoryRowStored[]; total: number }> {
    const { filter, pagination, sort } = input;
    const p = new SqlParams();
    const where = [`e.value->>'state' IN ('TRIGGERED', 'RELEASED')`, visibleSystemSql(actor, p, 's')];
    if (filter.system_cuid) where.push(`t.system_cuid = ${p.add(filter.system_cuid)}`);
    if (filter.trigger_cuid) where.push(`e.trigger_cuid = ${p.add(filter.trigger_cuid)}`);
    if (filter.severity_level) where.push(`COALESCE(n.severity_level, t.severity_level) = ${p.add(filter.severity_level)}`);
    if (filter.state) where.push(`e.value->>'state' = ${p.add(filter.state)}`);
    if (filter.from) where.push(`e."timestamp" >= ${p.add(filter.from)}`);
    if (filter.to) where.push(`e."timestamp" < ${p.add(filter.to)}`);
    const from = `FROM notification_trigger_event e
         JOIN notification_trigger t ON t.trigger_cuid = e.trigger_cuid
         JOIN system s ON s.system_cuid = t.system_cuid
         LEFT JOIN notification n ON n.notification_cuid = e.notification_cuid
        WHERE ${where.join(' AND ')}`;
    const countValues = [...p.values];
    const dir = sort.order === 'ASC' ? 'ASC' : 'DESC';
    const rows = (await this.db.query(
      `SELECT e.event_cuid, e."timestamp", e.value->>'state' AS state, e.value, e.trigger_cuid, t.name AS trigger_name,
              COALESCE(n.severity_level, t.severity_level)::text AS severity_level, t.system_cuid, s.name AS system_name, s.timezone,
              e.notification_cuid, e.status::text AS delivery, n.message AS delivered,
              CASE WHEN e.value->>'state' = 'RELEASED' THEN COALESCE(t.release_message, t.message) ELSE t.message END AS template
         ${from}
        ORDER BY ${HISTORY_ORDER[sort.field]} ${dir}, e."timestamp" ${dir}, e.event_cuid ${dir}
        LIMIT ${p.add(pagination.perPage)} OFFSET ${p.add((pagination.page - 1) * pagination.perPage)}`,
      p.values,
    )) as HistoryRowStored[];
    const [{ total }] = (await this.db.query(`SELECT count(*)::int AS total ${from}`, countValues)) as { total: number }[];
    return { rows, total };
  }

  async notificationVisible(actor: Actor, notification_cuid: string): Promise<boolean> {
    const p = new SqlParams([notification_cuid]);
    const rows = await this.db.query(
      `SELECT n.notification_cuid FROM notification n
         JOIN notification_trigger t ON t.trigger_cuid = n.trigger_cuid
         JOIN system s ON s.system_cuid = t.system_cuid
        WHERE n.notification_cuid = $1 AND ${visibleSystemSql(actor, p, 's')}`,
      p.values,
    );
    return rows.length > 0;
  }

  async lockAcknowledgement(actor: Actor, notification_cuid: string): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`ack:${actor.user_cuid}:${notification_cuid}`]);
  }

  async acknowledgedAt(actor: Actor, notification_cuid: string): Promise<Date | undefined> {
    const [existing] = (await this.db.query(
      `SELECT "timestamp" FROM notification_user_history WHERE user_cuid = $1 AND notification_cuid = $2 ORDER BY "timestamp" LIMIT 1`,
      [actor.user_cuid, notification_cuid],
    )) as { timestamp: Date }[];
    return existing?.timestamp;
  }

  async insertAcknowledgement(actor: Actor, notification_cuid: string): Promise<Date> {
    const [row] = (await this.db.query(
      `INSERT INTO notification_user_history ("timestamp", user_cuid, notification_cuid) VALUES (now(), $1, $2) RETURNING "timestamp"`,
      [actor.user_cuid, notification_cuid],
    )) as { timestamp: Date }[];
    return row.timestamp;
  }

  async mute(actor: Actor, trigger_cuid: string, until: Date | null): Promise<void> {
    await this.db.query(
      `INSERT INTO notification_user_blacklist (blacklist_cuid, user_cuid, trigger_cuid, until) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_cuid, trigger_cuid) DO UPDATE SET until = EXCLUDED.until`,
      [newCuid(), actor.user_cuid, trigger_cuid, until],
    );
  }

  async unmute(actor: Actor, trigger_cuid: string): Promise<void> {
    await this.db.query(`DELETE FROM notification_user_blacklist WHERE user_cuid = $1 AND trigger_cuid = $2`, [actor.user_cuid, trigger_cuid]);
  }

  async triggerStatuses(actor: Actor, trigger_cuids: readonly string[]): Promise<TTriggerStatus[]> {
    const p = new SqlParams([[...new Set(trigger_cuids)]]);
    return (await this.db.query(
      `SELECT t.trigger_cuid, COALESCE(st.trigger_state, 'RELEASED')::text AS trigger_state, st.state_since, st.evaluated_at,
              st.processing_status::text AS processing_status, st.next_execution, st.last_value,
              st.pending_state::text AS pending_state, st.pending_since
         FROM notification_trigger t
         JOIN system s ON s.system_cuid = t.system_cuid
         LEFT JOIN notification_trigger_status st ON st.trigger_cuid = t.trigger_cuid
        WHERE t.trigger_cuid = ANY($1::varchar[]) AND ${visibleSystemSql(actor, p, 's')}
        ORDER BY t.trigger_cuid`,
      p.values,
    )) as TTriggerStatus[];
  }

  systemVisible(actor: Actor, system_cuid: string): Promise<boolean> {
    return systemVisibleTo(actor, this.db, system_cuid);
  }

  triggerVisible(actor: Actor, trigger_cuid: string): Promise<boolean> {
    return triggerVisibleTo(actor, this.db, trigger_cuid);
  }
}
