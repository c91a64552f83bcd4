import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { Actor } from '../../../../shared/access/policy';
import { runningMuteSql } from '../../controllers/device-mute.entity';
import { DATA_SOURCE } from '../../database/database.module';
import { SqlParams } from '../../database/sql-params';
import { type AutomaticChangelogEntry, writeAutomaticChangelog } from '../../systems/automatic-changelog';
import { visibleSystemIdSql, visibleSystemSql } from '../../tenancy/visibility';
import type { HistoryRow } from './state-decode';
import type { TMute } from './status.schema';

/** A device or data processor of a system with its latest state bundle and its type's state meta. */
export interface StatusDeviceRow {
  entity_cuid: string;
  name: string;
  entitytype_id: string;
  model: string | null;
  kind: string;
  controller_id: string | null;
  meta: unknown;
  state_at: Date | null;
  state_bundle: unknown;
}

/** A log parameter of a device's type; for an Enum parameter its latest 5-minute value. */
export interface StatusParameterRow {
  entity_cuid: string;
  parameter_id: string;
  description: string | null;
  type: string;
  value: number | null;
  timestamp: Date | null;
}

export interface StatusControllerRow {
  controller_id: string;
  name: string;
  online_state: HistoryRow['online_state'];
  last_seen_at: Date | null;
}

/** The columns of a mute as ZMute has them (alias m; the device e). */
const MUTE_COLUMNS = `m.mute_cuid, m.entity_cuid, e.name AS device_name, m.system_cuid, m.starts_at, m.until, m.reason,
  m.created_by, (SELECT u.name FROM "user" u WHERE u.user_cuid = m.created_by) AS created_by_name, m.created_at,
  m.ended_at, m.ended_by, (SELECT u.name FROM "user" u WHERE u.user_cuid = m.ended_by) AS ended_by_name,
  ${runningMuteSql('m')} AS active`;

/**
 * The SQL of the system status view and device mutes (docs/control.md, "System status view" and
 * "Mutes"). Every read names one system and returns nothing unless the caller sees it (the service
 * checks the level); the writes run in the caller's transaction (`tx`), on rows it locked through
 * the same visibility.
 */
@Injectable()
export class StatusRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(work);
  }

  /** Devices and processors of the system with their latest state (devices first, then by name). */
  async devices(actor: Actor, system_cuid: string): Promise<StatusDeviceRow[]> {
    const p = new SqlParams([system_cuid]);
    return await this.ds.query<StatusDeviceRow[]>(
      `SELECT e.entity_cuid, e.name, e.entitytype_id, et.model, et.entity_type::text AS kind, e.controller_id, m.meta,
              ds."timestamp" AS state_at, ds.state_bundle
         FROM entity e
         JOIN entity_type et ON et.entitytype_id = e.entitytype_id
         LEFT JOIN entity_type_meta m ON m.entitytypemeta_id = et.entitytypemeta_id
         LEFT JOIN LATERAL (SELECT d."timestamp", d.state_bundle FROM device_state d
                             WHERE d.entity_cuid = e.entity_cuid ORDER BY d."timestamp" DESC LIMIT 1) ds ON true
        WHERE e.system_cuid = $1 AND ${visibleSystemIdSql(actor, p, '$1')}
        ORDER BY (et.entity_type <> 'Device'), e.name, e.entity_cuid`,
      p.values,
    );
  }

  /** Every log parameter of the system's devices' types (their names), with the latest value of the Enum ones. */
  async parameters(actor: Actor, system_cuid: string): Promise<StatusParameterRow[]> {
    const p = new SqlParams([system_cuid]);
    return await this.ds.query<StatusParameterRow[]>(
      `SELECT e.entity_cuid, lp.parameter_id, lp.description, lp.type::text AS type, l.last AS value, l.last_ts AS timestamp
         FROM entity e
         JOIN entity_type_log_parameter_assignment a ON a.entitytype_id = e.entitytype_id
         JOIN log_parameter lp ON lp.parameter_id = a.parameter_id
         LEFT JOIN LATERAL (SELECT r.last, r.last_ts FROM parameter_rollup_5m r
                             WHERE lp.type = 'EnumLogParameter' AND r.entity_cuid = e.entity_cuid AND r.parameter_id = lp.parameter_id
                             ORDER BY r.bucket DESC LIMIT 1) l ON true
        WHERE e.system_cuid = $1 AND ${visibleSystemIdSql(actor, p, '$1')}
        ORDER BY e.entity_cuid, lp.parameter_id`,
      p.values,
    );
  }

  /** The system's controllers with their online state (OFFLINE before any) and last contact. */
  async controllers(actor: Actor, system_cuid: string): Promise<StatusControllerRow[]> {
    const p = new SqlParams([system_cuid]);
    return await this.ds.query<StatusControllerRow[]>(
      `SELECT c.controller_id, c.name, COALESCE(s.online_state::text, 'OFFLINE') AS online_state, p.last_seen_at
         FROM controller c
         LEFT JOIN controller_online_state s ON s.controller_id = c.controller_id
         LEFT JOIN controller_presence p ON p.controller_id = c.controller_id
        WHERE c.system_cuid = $1 AND ${visibleSystemIdSql(actor, p, '$1')}
        ORDER BY c.name, c.controller_id`,
      p.values,
    );
  }

  /**
   * The online-state changes of the system's controllers in (from, to], and per controller the last
   * one at or before `from` (its state then); by controller and time, at most `limit` rows.
   */
  async history(actor: Actor, system_cuid: string, from: Date, to: Date, limit: number): Promise<HistoryRow[]> {
    const p = new SqlParams([system_cuid, from, to]);
    const visible = visibleSystemIdSql(actor, p, '$1');
    return await this.ds.query<HistoryRow[]>(
      `SELECT * FROM (
         SELECT b.controller_id, b."timestamp", b.online_state::text AS online_state
           FROM controller c
           JOIN LATERAL (SELECT h.controller_id, h."timestamp", h.online_state FROM controller_online_state_history h
                          WHERE h.controller_id = c.controller_id AND h."timestamp" <= $2
                          ORDER BY h."timestamp" DESC LIMIT 1) b ON true
          WHERE c.system_cuid = $1 AND ${visible}
         UNION ALL
         SELECT h.controller_id, h."timestamp", h.online_state::text
           FROM controller_online_state_history h JOIN controller c ON c.controller_id = h.controller_id
          WHERE c.system_cuid = $1 AND ${visible} AND h."timestamp" > $2 AND h."timestamp" <= $3
       ) x ORDER BY controller_id, "timestamp" LIMIT ${p.add(limit)}`,
      p.values,
    );
  }

  /** The system's mutes (only the running ones with `active` true, only the others with false), newest first, at most `limit`. */
  async mutes(actor: Actor, system_cuid: string, active: boolean | undefined, limit: number): Promise<TMute[]> {
    const p = new SqlParams([system_cuid]);
    const activeSql = runningMuteSql('m');
    return await this.ds.query<TMute[]>(
      `SELECT ${MUTE_COLUMNS} FROM device_mute m JOIN entity e ON e.entity_cuid = m.entity_cuid
        WHERE m.system_cuid = $1 AND ${visibleSystemIdSql(actor, p, '$1')}
              ${active === undefined ? '' : active ? `AND ${activeSql}` : `AND NOT ${activeSql}`}
        ORDER BY m.created_at DESC, m.mute_cuid LIMIT ${p.add(limit)}`,
      p.values,
    );
  }

  /** In the caller's transaction: a device of a system the caller sees, locked, with its system's time zone. */
  async lockVisibleDevice(
    actor: Actor,
    tx: EntityManager,
    entity_cuid: string,
  ): Promise<{ entity_cuid: string; name: string; system_cuid: string; timezone: string } | undefined> {
    const p = new SqlParams([entity_cuid]);
    const [device] = await tx.query<{ entity_cuid: string; name: string; system_cuid: string; timezone: string }[]>(
      `SELECT e.entity_cuid, e.name, s.system_cuid, s.timezone FROM entity e JOIN system s ON s.system_cuid = e.system_cuid
        WHERE e.entity_cuid = $1 AND ${visibleSystemSql(actor, p, 's')}
        FOR UPDATE OF e`,
      p.values,
    );
    return device;
  }

  /** In the caller's transaction: a mute of a system the caller sees, locked. */
  async lockVisibleMute(
    actor: Actor,
    tx: EntityManager,
    mute_cuid: string,
  ): Promise<{ mute_cuid: string; system_cuid: string; ended_at: Date | null; until: Date; device_name: string } | undefined> {
    const p = new SqlParams([mute_cuid]);
    const [mute] = await tx.query<{ mute_cuid: string; system_cuid: string; ended_at: Date | null; until: Date; device_name: string }[]>(
      `SELECT m.mute_cuid, m.system_cuid, m.ended_at, m.until, e.name AS device_name
         FROM device_mute m JOIN entity e ON e.entity_cuid = m.entity_cuid JOIN system s ON s.system_cuid = m.system_cuid
        WHERE m.mute_cuid = $1 AND ${visibleSystemSql(actor, p, 's')}
        FOR UPDATE OF m`,
      p.values,
    );
    return mute;
  }

  /** In the caller's transaction (device locked by lockVisibleDevice): ends its running mutes now, by the caller; answers how many. */
  async endRunningMutes(actor: Actor, tx: EntityManager, entity_cuid: string): Promise<number> {
    const [, count] = await tx.query<[unknown[], number]>(
      `UPDATE device_mute m SET ended_at = now(), ended_by = $2 WHERE m.entity_cuid = $1 AND ${runningMuteSql('m')} RETURNING m.mute_cuid`,
      [entity_cuid, actor.user_cuid],
    );
    return count;
  }

  /** In the caller's transaction: a new mute created by the caller. */
  async insertMute(
    actor: Actor,
    tx: EntityManager,
    mute: { mute_cuid: string; entity_cuid: string; system_cuid: string; until: Date; reason: string | null },
  ): Promise<void> {
    await tx.query(`INSERT INTO device_mute (mute_cuid, entity_cuid, system_cuid, until, reason, created_by) VALUES ($1, $2, $3, $4, $5, $6)`, [
      mute.mute_cuid,
      mute.entity_cuid,
      mute.system_cuid,
      mute.until,
      mute.reason,
      actor.user_cuid,
    ]);
  }

  /** In the caller's transaction (mute locked by lockVisibleMute): ends it now, by the caller. */
  async endMute(actor: Actor, tx: EntityManager, mute_cuid: string): Promise<void> {
    await tx.query(`UPDATE device_mute SET ended_at = now(), ended_by = $2 WHERE mute_cuid = $1`, [mute_cuid, actor.user_cuid]);
  }

  /** In the caller's transaction (a mute it just wrote): the mute as ZMute has it. */
  async oneMute(_actor: Actor, tx: EntityManager, mute_cuid: string): Promise<TMute | undefined> {
    const [row] = await tx.query<TMute[]>(`SELECT ${MUTE_COLUMNS} FROM device_mute m JOIN entity e ON e.entity_cuid = m.entity_cuid WHERE m.mute_cuid = $1`, [
      mute_cuid,
    ]);
    return row;
  }

  /** In the caller's transaction: MUTE entries in the system changelog. */
  async writeChangelog(_actor: Actor, tx: EntityManager, entries: AutomaticChangelogEntry[]): Promise<void> {
    await writeAutomaticChangelog(tx, entries);
  }
}
