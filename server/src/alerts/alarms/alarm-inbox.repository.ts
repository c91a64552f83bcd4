import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Actor } from '../../../../shared/access/policy';
import { DATA_SOURCE } from '../../database/database.module';
import { SqlRepository, type Transactional } from '../../database/repository';
import { SqlParams } from '../../database/sql-params';
import { visibleSystemSql } from '../../tenancy/visibility';
import { MUTE_IN_FORCE } from './alarms.repository';
import type { TInboxItem } from './alarms.schema';

export type InboxKind = 'portal' | 'alarm';

/** An inbox row as stored (the id and the link are the service's). */
export type InboxRow = Omit<TInboxItem, 'id' | 'target'>;

/**
 * The SQL of the inbox: portal notifications and alarm notifications of the systems the caller
 * sees, newest first, with the caller's read state. Alarms of triggers the caller mutes now are
 * left out (the same rule as their toasts). Every method takes the caller first; read marks are
 * only ever the caller's own rows.
 */
export interface AlarmInboxRepository extends Transactional<AlarmInboxRepository> {
  count(actor: Actor, unreadOnly: boolean): Promise<number>;
  /** One page, newest first. */
  page(actor: Actor, unreadOnly: boolean, page: number, perPage: number): Promise<InboxRow[]>;
  /** Unread items by kind, counting at most `cap` in all. */
  unreadCounts(actor: Actor, cap: number): Promise<{ portal: number; alarms: number }>;
  /** Serialises the caller's read marks until the transaction ends. */
  lockReadMarks(actor: Actor): Promise<void>;
  /** Visible items (unread ones only, with `unreadOnly`), those whose "<kind>:<notification_cuid>" is in `keys` when given. */
  items(actor: Actor, unreadOnly: boolean, keys?: readonly string[]): Promise<{ kind: InboxKind; notification_cuid: string; read: boolean }[]>;
  /** Marks notifications of one kind read for the caller now. */
  insertReadMarks(actor: Actor, kind: InboxKind, notification_cuids: readonly string[]): Promise<void>;
}

const READ_TABLE: ReadonlyMap<InboxKind, string> = new Map([
  ['portal', 'portal_notification_user_history'],
  ['alarm', 'notification_user_history'],
]);

/** The two sides of the inbox (portal, alarm), each a SELECT of InboxRow columns. */
function inboxBranches(actor: Actor, p: SqlParams, unreadOnly: boolean): [string, string] {
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

function inboxSql(actor: Actor, p: SqlParams, unreadOnly: boolean): string {
  const [portal, alarm] = inboxBranches(actor, p, unreadOnly);
  return `${portal} UNION ALL ${alarm}`;
}

@Injectable()
export class SqlAlarmInboxRepository extends SqlRepository<AlarmInboxRepository> implements AlarmInboxRepository {
  constructor(@Inject(DATA_SOURCE) ds: DataSource) {
    super(ds);
  }

  async count(actor: Actor, unreadOnly: boolean): Promise<number> {
    const p = new SqlParams();
    const [{ total }] = (await this.db.query(`SELECT count(*)::int AS total FROM (${inboxSql(actor, p, unreadOnly)}) i`, p.values)) as { total: number }[];
    return total;
  }

  async page(actor: Actor, unreadOnly: boolean, page: number, perPage: number): Promise<InboxRow[]> {
    // Each side sorted and cut to the page's end first: a fleet's whole history is never sorted in one piece.
    const p = new SqlParams();
    const [portal, alarm] = inboxBranches(actor, p, unreadOnly);
    const end = p.add(page * perPage);
    const order = `ORDER BY sent_at DESC, notification_cuid`;
    return (await this.db.query(
      `SELECT * FROM ((${portal} ${order} LIMIT ${end}) UNION ALL (${alarm} ${order} LIMIT ${end})) i
        ${order} LIMIT ${p.add(perPage)} OFFSET ${p.add((page - 1) * perPage)}`,
      p.values,
    )) as InboxRow[];
  }

  async unreadCounts(actor: Actor, cap: number): Promise<{ portal: number; alarms: number }> {
    const p = new SqlParams();
    const inbox = inboxSql(actor, p, true);
    const [row] = (await this.db.query(
      `SELECT count(*) FILTER (WHERE kind = 'portal')::int AS portal, count(*) FILTER (WHERE kind = 'alarm')::int AS alarms
         FROM (SELECT kind FROM (${inbox}) i LIMIT ${p.add(cap)}) c`,
      p.values,
    )) as { portal: number; alarms: number }[];
    return row;
  }

  async lockReadMarks(actor: Actor): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`inbox:${actor.user_cuid}`]);
  }

  async items(actor: Actor, unreadOnly: boolean, keys?: readonly string[]): Promise<{ kind: InboxKind; notification_cuid: string; read: boolean }[]> {
    const p = new SqlParams();
    let wanted = `SELECT kind, notification_cuid, read FROM (${inboxSql(actor, p, unreadOnly)}) i`;
    if (keys) wanted += ` WHERE kind || ':' || notification_cuid = ANY(${p.add([...keys])}::text[])`;
    return (await this.db.query(wanted, p.values)) as { kind: InboxKind; notification_cuid: string; read: boolean }[];
  }

  async insertReadMarks(actor: Actor, kind: InboxKind, notification_cuids: readonly string[]): Promise<void> {
    if (!notification_cuids.length) return;
    await this.db.query(`INSERT INTO ${READ_TABLE.get(kind)!} ("timestamp", user_cuid, notification_cuid) SELECT now(), $1, unnest($2::varchar[])`, [
      actor.user_cuid,
      [...notification_cuids],
    ]);
  }
}
