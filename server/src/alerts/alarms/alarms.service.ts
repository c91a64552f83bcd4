import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { type Actor, actorFor } from '../../access/policy';
import { forbidden, notFound } from '../../common/errors';
import { newCuid } from '../../common/ids';
import { DATA_SOURCE } from '../../database/database.module';
import { SqlParams } from '../../database/sql-params';
import { visibleSystemSql } from '../../tenancy/visibility';
import { renderMessage } from '../render';
import { ZTriggerEventValue } from '../rules';
import {
  UNREAD_COUNT_CAP,
  type TActiveAlarm,
  type THistoryInput,
  type THistoryRow,
  type TInboxItem,
  type TTriggerStatus,
} from './alarms.schema';

/** The message of a firing: the delivered text, else the trigger's template filled with the event's values. */
function messageOf(delivered: string | null, template: string | null, value: unknown): string {
  if (delivered) return delivered;
  const parsed = ZTriggerEventValue.safeParse(value);
  if (template && parsed.success) return renderMessage(template, parsed.data, 'text');
  return template ?? '';
}

/** A mute still in force (NULL until = until unmuted). */
const MUTE_IN_FORCE = `(b.until IS NULL OR b.until > now())`;

const HISTORY_ORDER: Record<THistoryInput['sort']['field'], string> = {
  timestamp: 'e."timestamp"',
  severity_level: 'COALESCE(n.severity_level, t.severity_level)',
  system_name: 's.name',
  trigger_name: 't.name',
  state: `e.value->>'state'`,
};

/**
 * The alarm screens (issue 11): active alarms, their history, acknowledgement, mutes, the inbox
 * and trigger status. Every query joins the system and keeps the rows the caller sees
 * (visibleSystemSql: owner company or a share); a foreign id answers like a missing one.
 */
@Injectable()
export class AlarmsService {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /** Triggers now TRIGGERED (active ones) of the systems the caller sees. */
  async active(actor: Actor, system_cuid?: string): Promise<TActiveAlarm[]> {
    const p = new SqlParams([actor.user_cuid]);
    if (system_cuid) await this.visibleSystem(actor, system_cuid);
    const rows = (await this.ds.query(
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
    )) as (Omit<TActiveAlarm, 'message'> & { template: string; event_value: unknown; delivered: string | null })[];
    return rows.map(({ template, event_value, delivered, ...r }) => ({ ...r, message: messageOf(delivered, template, event_value) }));
  }

  /** State changes (TRIGGERED and RELEASED events) of visible triggers, filtered, one page. */
  async history(actor: Actor, input: THistoryInput): Promise<{ data: THistoryRow[]; total: number }> {
    const { filter, pagination, sort } = input;
    if (filter.system_cuid) await this.visibleSystem(actor, filter.system_cuid);
    if (filter.trigger_cuid) await this.visibleTrigger(actor, filter.trigger_cuid);
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
    const rows = (await this.ds.query(
      `SELECT e.event_cuid, e."timestamp", e.value->>'state' AS state, e.value, e.trigger_cuid, t.name AS trigger_name,
              COALESCE(n.severity_level, t.severity_level)::text AS severity_level, t.system_cuid, s.name AS system_name, s.timezone,
              e.notification_cuid, e.status::text AS delivery, n.message AS delivered,
              CASE WHEN e.value->>'state' = 'RELEASED' THEN COALESCE(t.release_message, t.message) ELSE t.message END AS template
         ${from}
        ORDER BY ${HISTORY_ORDER[sort.field]} ${dir}, e."timestamp" ${dir}, e.event_cuid ${dir}
        LIMIT ${p.add(pagination.perPage)} OFFSET ${p.add((pagination.page - 1) * pagination.perPage)}`,
      p.values,
    )) as (Omit<THistoryRow, 'id' | 'message'> & { delivered: string | null; template: string })[];
    const [{ total }] = (await this.ds.query(`SELECT count(*)::int AS total ${from}`, countValues)) as { total: number }[];
    return {
      data: rows.map(({ delivered, template, ...r }) => ({ ...r, id: r.event_cuid, message: messageOf(delivered, template, r.value) })),
      total,
    };
  }

  /** Writes NotificationUserHistory once per user and notification (a second call changes nothing). */
  async acknowledge(actor: Actor, notification_cuid: string): Promise<{ ok: true; acknowledged_at: Date }> {
    return this.ds.transaction(async (tx) => {
      const p = new SqlParams([notification_cuid]);
      const [n] = (await tx.query(
        `SELECT n.notification_cuid FROM notification n
           JOIN notification_trigger t ON t.trigger_cuid = n.trigger_cuid
           JOIN system s ON s.system_cuid = t.system_cuid
          WHERE n.notification_cuid = $1 AND ${visibleSystemSql(actor, p, 's')}`,
        p.values,
      )) as { notification_cuid: string }[];
      if (!n) throw notFound('Notification');
      // One row per (user, notification) even under concurrent clicks: serialise on the pair.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`ack:${actor.user_cuid}:${notification_cuid}`]);
      const [existing] = (await tx.query(
        `SELECT "timestamp" FROM notification_user_history WHERE user_cuid = $1 AND notification_cuid = $2 ORDER BY "timestamp" LIMIT 1`,
        [actor.user_cuid, notification_cuid],
      )) as { timestamp: Date }[];
      if (existing) return { ok: true as const, acknowledged_at: existing.timestamp };
      const [row] = (await tx.query(
        `INSERT INTO notification_user_history ("timestamp", user_cuid, notification_cuid) VALUES (now(), $1, $2) RETURNING "timestamp"`,
        [actor.user_cuid, notification_cuid],
      )) as { timestamp: Date }[];
      return { ok: true as const, acknowledged_at: row.timestamp };
    });
  }

  /** Mutes a visible trigger for the caller (only ever their own row); a second mute replaces the end. */
  async mute(actor: Actor, trigger_cuid: string, until: Date | null): Promise<void> {
    await this.visibleTrigger(actor, trigger_cuid);
    await this.ds.query(
      `INSERT INTO notification_user_blacklist (blacklist_cuid, user_cuid, trigger_cuid, until) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_cuid, trigger_cuid) DO UPDATE SET until = EXCLUDED.until`,
      [newCuid(), actor.user_cuid, trigger_cuid, until],
    );
  }

  async unmute(actor: Actor, trigger_cuid: string): Promise<void> {
    await this.visibleTrigger(actor, trigger_cuid);
    await this.ds.query(`DELETE FROM notification_user_blacklist WHERE user_cuid = $1 AND trigger_cuid = $2`, [actor.user_cuid, trigger_cuid]);
  }

  /**
   * The inbox: portal notifications and alarm notifications of the systems the caller sees, newest
   * first, with the caller's read state. Alarms of triggers the caller mutes now are left out (the
   * same rule as their toasts).
   */
  private inboxBranches(actor: Actor, p: SqlParams, unreadOnly: boolean): [string, string] {
    const user = p.add(actor.user_cuid);
    const portalRead = `EXISTS (SELECT 1 FROM portal_notification_user_history h WHERE h.user_cuid = ${user} AND h.notification_cuid = pn.notification_cuid)`;
    const alarmRead = `EXISTS (SELECT 1 FROM notification_user_history h WHERE h.user_cuid = ${user} AND h.notification_cuid = n.notification_cuid)`;
    return [
      `SELECT 'portal' AS kind, pn.notification_cuid, pn.message, pn.sent_at, pn.severity_level::text AS severity_level,
              pn.system_cuid, s.name AS system_name, s.timezone, pn.type::text AS type, NULL::varchar AS trigger_cuid,
              NULL::varchar AS trigger_name, ${portalRead} AS read
         FROM portal_notification pn JOIN system s ON s.system_cuid = pn.system_cuid
        WHERE ${visibleSystemSql(actor, p, 's')} ${unreadOnly ? `AND NOT ${portalRead}` : ''}`,
      `SELECT 'alarm' AS kind, n.notification_cuid, n.message, n.sent_at, n.severity_level::text AS severity_level,
              t.system_cuid, s.name AS system_name, s.timezone, NULL::text AS type, t.trigger_cuid, t.name AS trigger_name, ${alarmRead} AS read
         FROM notification n
         JOIN notification_trigger t ON t.trigger_cuid = n.trigger_cuid
         JOIN system s ON s.system_cuid = t.system_cuid
        WHERE ${visibleSystemSql(actor, p, 's')} ${unreadOnly ? `AND NOT ${alarmRead}` : ''}
          AND NOT EXISTS (SELECT 1 FROM notification_user_blacklist b
                           WHERE b.user_cuid = ${user} AND b.trigger_cuid = t.trigger_cuid AND ${MUTE_IN_FORCE})`,
    ];
  }

  private inboxSql(actor: Actor, p: SqlParams, unreadOnly: boolean): string {
    const [portal, alarm] = this.inboxBranches(actor, p, unreadOnly);
    return `${portal} UNION ALL ${alarm}`;
  }

  async inboxList(actor: Actor, input: { pagination: { page: number; perPage: number }; unreadOnly: boolean }): Promise<{ data: TInboxItem[]; total: number }> {
    const { page, perPage } = input.pagination;
    const countParams = new SqlParams();
    const [{ total }] = (await this.ds.query(`SELECT count(*)::int AS total FROM (${this.inboxSql(actor, countParams, input.unreadOnly)}) i`, countParams.values)) as {
      total: number;
    }[];
    // Each side sorted and cut to the page's end first: a fleet's whole history is never sorted in one piece.
    const p = new SqlParams();
    const [portal, alarm] = this.inboxBranches(actor, p, input.unreadOnly);
    const end = p.add(page * perPage);
    const order = `ORDER BY sent_at DESC, notification_cuid`;
    const rows = (await this.ds.query(
      `SELECT * FROM ((${portal} ${order} LIMIT ${end}) UNION ALL (${alarm} ${order} LIMIT ${end})) i
        ${order} LIMIT ${p.add(perPage)} OFFSET ${p.add((page - 1) * perPage)}`,
      p.values,
    )) as Omit<TInboxItem, 'id' | 'target'>[];
    return {
      data: rows.map((r) => ({
        ...r,
        id: `${r.kind}:${r.notification_cuid}`,
        target: r.kind === 'alarm' ? `/systems/${r.system_cuid}/alarms` : `/systems/${r.system_cuid}/changelog`,
      })),
      total,
    };
  }

  async unreadCount(actor: Actor): Promise<{ portal: number; alarms: number; total: number; capped: boolean }> {
    const p = new SqlParams();
    const inbox = this.inboxSql(actor, p, true);
    const [row] = (await this.ds.query(
      `SELECT count(*) FILTER (WHERE kind = 'portal')::int AS portal, count(*) FILTER (WHERE kind = 'alarm')::int AS alarms
         FROM (SELECT kind FROM (${inbox}) i LIMIT ${p.add(UNREAD_COUNT_CAP)}) c`,
      p.values,
    )) as { portal: number; alarms: number }[];
    const total = row.portal + row.alarms;
    return { ...row, total, capped: total >= UNREAD_COUNT_CAP };
  }

  /** Marks items (or everything unread) read. Any item the caller cannot see: NOT_FOUND, nothing written. */
  async markRead(actor: Actor, input: { items: { kind: 'portal' | 'alarm'; notification_cuid: string }[] } | { all: true }): Promise<{ marked: number }> {
    return this.ds.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`inbox:${actor.user_cuid}`]);
      const p = new SqlParams();
      const inbox = this.inboxSql(actor, p, 'all' in input);
      let wanted = `SELECT kind, notification_cuid, read FROM (${inbox}) i`;
      let expected = -1;
      if ('items' in input) {
        const keys = [...new Set(input.items.map((i) => `${i.kind}:${i.notification_cuid}`))];
        expected = keys.length;
        wanted += ` WHERE kind || ':' || notification_cuid = ANY(${p.add(keys)}::text[])`;
      }
      const rows = (await tx.query(wanted, p.values)) as { kind: 'portal' | 'alarm'; notification_cuid: string; read: boolean }[];
      if (expected >= 0 && rows.length !== expected) throw notFound('Notification');
      const unread = rows.filter((r) => !r.read);
      for (const [kind, table] of [
        ['portal', 'portal_notification_user_history'],
        ['alarm', 'notification_user_history'],
      ] as const) {
        const ids = unread.filter((r) => r.kind === kind).map((r) => r.notification_cuid);
        if (ids.length)
          await tx.query(`INSERT INTO ${table} ("timestamp", user_cuid, notification_cuid) SELECT now(), $1, unnest($2::varchar[])`, [actor.user_cuid, ids]);
      }
      return { marked: unread.length };
    });
  }

  /** Statuses of the triggers whose system the caller sees at the level `eventTriggers.view` needs there. */
  async triggerStatuses(caller: Actor, trigger_cuids: string[]): Promise<TTriggerStatus[]> {
    const actor = actorFor(caller, 'eventTriggers.view');
    const p = new SqlParams([[...new Set(trigger_cuids)]]);
    return (await this.ds.query(
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

  async triggerStatus(actor: Actor, trigger_cuid: string): Promise<TTriggerStatus> {
    const [row] = await this.triggerStatuses(actor, [trigger_cuid]);
    if (!row) {
      // Seen, but through a company where the caller's level is too low: refused, not hidden.
      await this.visibleTrigger(actor, trigger_cuid);
      throw forbidden();
    }
    return row;
  }

  private async visibleSystem(actor: Actor, system_cuid: string): Promise<void> {
    const p = new SqlParams([system_cuid]);
    const rows = (await this.ds.query(`SELECT 1 FROM system s WHERE s.system_cuid = $1 AND ${visibleSystemSql(actor, p, 's')}`, p.values)) as unknown[];
    if (!rows.length) throw notFound('System');
  }

  private async visibleTrigger(actor: Actor, trigger_cuid: string): Promise<void> {
    const p = new SqlParams([trigger_cuid]);
    const rows = (await this.ds.query(
      `SELECT 1 FROM notification_trigger t JOIN system s ON s.system_cuid = t.system_cuid
        WHERE t.trigger_cuid = $1 AND ${visibleSystemSql(actor, p, 's')}`,
      p.values,
    )) as unknown[];
    if (!rows.length) throw notFound('Trigger');
  }
}
