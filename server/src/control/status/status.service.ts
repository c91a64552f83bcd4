import { Inject, Injectable } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import type { DataSource, EntityManager } from 'typeorm';
import type { Actor } from '../../access/policy';
import { notFound } from '../../common/errors';
import { newCuid } from '../../common/ids';
import { fieldError } from '../../common/field-error';
import { DATA_SOURCE } from '../../database/database.module';
import { SqlParams } from '../../database/sql-params';
import { runningMuteSql } from '../../controllers/device-mute.entity';
import { writeAutomaticChangelog } from '../../systems/automatic-changelog';
import { SystemAccessService } from '../../systems/system-access.service';
import { visibleSystemSql } from '../../tenancy/visibility';
import { decodeBundle, decodeValue, type HistoryRow, keyInWords, readStateMeta, toSegments } from './state-decode';
import { MUTE_MAX_DAYS, STATUS_RANGE_DEFAULT_HOURS, STATUS_RANGE_MAX_DAYS, type TMute, type TSystemStatus } from './status.schema';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Mutes a list answers at most. */
const MUTE_LIST_MAX = 200;
/** History rows one status call reads at most (a flapping controller over 31 days). */
const HISTORY_ROWS_MAX = 20_000;

/** The columns of a mute as ZMute has them (alias m; the device e). */
const MUTE_COLUMNS = `m.mute_cuid, m.entity_cuid, e.name AS device_name, m.system_cuid, m.starts_at, m.until, m.reason,
  m.created_by, (SELECT u.name FROM "user" u WHERE u.user_cuid = m.created_by) AS created_by_name, m.created_at,
  m.ended_at, m.ended_by, (SELECT u.name FROM "user" u WHERE u.user_cuid = m.ended_by) AS ended_by_name,
  ${runningMuteSql('m')} AS active`;

/**
 * The system status view and device mutes (docs/control.md, "System status view" and "Mutes").
 * Every read is limited to a system the caller sees (else NOT_FOUND, like a missing one).
 */
@Injectable()
export class SystemStatusService {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly access: SystemAccessService,
  ) {}

  /** Devices with their latest readable state, controllers with their online timeline, active mutes: five queries. */
  async get(actor: Actor, input: { system_cuid: string; from?: Date; to?: Date }): Promise<TSystemStatus> {
    const system = await this.access.authorize(actor, 'systemStatus.view', input.system_cuid);
    const now = Date.now();
    const to = new Date(Math.min(input.to?.getTime() ?? now, now));
    const from = input.from ?? new Date(to.getTime() - STATUS_RANGE_DEFAULT_HOURS * HOUR);
    if (from.getTime() >= to.getTime()) throw fieldError(['from'], 'The start must be before the end');
    if (to.getTime() - from.getTime() > STATUS_RANGE_MAX_DAYS * DAY) throw fieldError(['from'], `At most ${STATUS_RANGE_MAX_DAYS} days`);
    const id = system.system_cuid;

    const [devices, enumRows, controllers, history, mutes] = await Promise.all([
      this.ds.query(
        `SELECT e.entity_cuid, e.name, e.entitytype_id, et.model, et.entity_type::text AS kind, e.controller_id, m.meta,
                ds."timestamp" AS state_at, ds.state_bundle
           FROM entity e
           JOIN entity_type et ON et.entitytype_id = e.entitytype_id
           LEFT JOIN entity_type_meta m ON m.entitytypemeta_id = et.entitytypemeta_id
           LEFT JOIN LATERAL (SELECT d."timestamp", d.state_bundle FROM device_state d
                               WHERE d.entity_cuid = e.entity_cuid ORDER BY d."timestamp" DESC LIMIT 1) ds ON true
          WHERE e.system_cuid = $1
          ORDER BY (et.entity_type <> 'Device'), e.name, e.entity_cuid`,
        [id],
      ) as Promise<DeviceRow[]>,
      // Latest value of every Enum log parameter of the devices' types, and every parameter's name (bundle keys that are parameters).
      this.ds.query(
        `SELECT e.entity_cuid, lp.parameter_id, lp.description, lp.type::text AS type, l.last AS value, l.last_ts AS timestamp
           FROM entity e
           JOIN entity_type_log_parameter_assignment a ON a.entitytype_id = e.entitytype_id
           JOIN log_parameter lp ON lp.parameter_id = a.parameter_id
           LEFT JOIN LATERAL (SELECT r.last, r.last_ts FROM parameter_rollup_5m r
                               WHERE lp.type = 'EnumLogParameter' AND r.entity_cuid = e.entity_cuid AND r.parameter_id = lp.parameter_id
                               ORDER BY r.bucket DESC LIMIT 1) l ON true
          WHERE e.system_cuid = $1
          ORDER BY e.entity_cuid, lp.parameter_id`,
        [id],
      ) as Promise<{ entity_cuid: string; parameter_id: string; description: string | null; type: string; value: number | null; timestamp: Date | null }[]>,
      this.ds.query(
        `SELECT c.controller_id, c.name, COALESCE(s.online_state::text, 'OFFLINE') AS online_state, p.last_seen_at
           FROM controller c
           LEFT JOIN controller_online_state s ON s.controller_id = c.controller_id
           LEFT JOIN controller_presence p ON p.controller_id = c.controller_id
          WHERE c.system_cuid = $1
          ORDER BY c.name, c.controller_id`,
        [id],
      ) as Promise<{ controller_id: string; name: string; online_state: HistoryRow['online_state']; last_seen_at: Date | null }[]>,
      // The changes in (from, to], and per controller the last one at or before `from` (its state then).
      this.ds.query(
        `SELECT * FROM (
           SELECT b.controller_id, b."timestamp", b.online_state::text AS online_state
             FROM controller c
             JOIN LATERAL (SELECT h.controller_id, h."timestamp", h.online_state FROM controller_online_state_history h
                            WHERE h.controller_id = c.controller_id AND h."timestamp" <= $2
                            ORDER BY h."timestamp" DESC LIMIT 1) b ON true
            WHERE c.system_cuid = $1
           UNION ALL
           SELECT h.controller_id, h."timestamp", h.online_state::text
             FROM controller_online_state_history h JOIN controller c ON c.controller_id = h.controller_id
            WHERE c.system_cuid = $1 AND h."timestamp" > $2 AND h."timestamp" <= $3
         ) x ORDER BY controller_id, "timestamp" LIMIT ${HISTORY_ROWS_MAX}`,
        [id, from, to],
      ) as Promise<HistoryRow[]>,
      this.mutesOf(id, true),
    ]);

    const paramsByEntity = new Map<string, typeof enumRows>();
    for (const r of enumRows) {
      const list = paramsByEntity.get(r.entity_cuid) ?? [];
      list.push(r);
      paramsByEntity.set(r.entity_cuid, list);
    }
    const mutedUntil = new Map<string, Date>();
    for (const m of mutes) {
      const known = mutedUntil.get(m.entity_cuid);
      if (!known || known < m.until) mutedUntil.set(m.entity_cuid, m.until);
    }
    const historyBy = new Map<string, HistoryRow[]>();
    for (const h of history) {
      const list = historyBy.get(h.controller_id) ?? [];
      list.push({ ...h, timestamp: new Date(h.timestamp) });
      historyBy.set(h.controller_id, list);
    }

    return {
      system_cuid: id,
      name: system.name,
      timezone: system.timezone,
      from,
      to,
      devices: devices.map((d) => {
        const meta = readStateMeta(d.meta);
        const params = paramsByEntity.get(d.entity_cuid) ?? [];
        const labels = new Map(params.map((p) => [p.parameter_id, p.description ?? keyInWords(p.parameter_id)]));
        const state = d.state_at ? { timestamp: new Date(d.state_at), ...decodeBundle(d.state_bundle, meta, labels) } : null;
        return {
          entity_cuid: d.entity_cuid,
          name: d.name,
          entitytype_id: d.entitytype_id,
          model: d.model,
          kind: d.kind,
          controller_id: d.controller_id,
          state,
          enums: params
            .filter((p) => p.type === 'EnumLogParameter')
            .map((p) => ({
              parameter_id: p.parameter_id,
              label: labels.get(p.parameter_id)!,
              value: p.value === null ? null : Number(p.value),
              text: p.value === null ? null : decodeValue(meta, p.parameter_id, Number(p.value)).text,
              timestamp: p.timestamp ? new Date(p.timestamp) : null,
            })),
          muted_until: mutedUntil.get(d.entity_cuid) ?? null,
        };
      }),
      controllers: controllers.map((c) => ({
        controller_id: c.controller_id,
        name: c.name,
        online_state: c.online_state,
        last_seen_at: c.last_seen_at ? new Date(c.last_seen_at) : null,
        segments: toSegments(historyBy.get(c.controller_id) ?? [], from, to),
      })),
      mutes,
    };
  }

  private async mutesOf(system_cuid: string, active?: boolean, manager: EntityManager = this.ds.manager): Promise<TMute[]> {
    const activeSql = runningMuteSql('m');
    const rows = (await manager.query(
      `SELECT ${MUTE_COLUMNS} FROM device_mute m JOIN entity e ON e.entity_cuid = m.entity_cuid
        WHERE m.system_cuid = $1 ${active === undefined ? '' : active ? `AND ${activeSql}` : `AND NOT ${activeSql}`}
        ORDER BY m.created_at DESC, m.mute_cuid LIMIT ${MUTE_LIST_MAX}`,
      [system_cuid],
    )) as TMute[];
    return rows;
  }

  /** A system's mutes (systemStatus.view). */
  async listMutes(actor: Actor, input: { system_cuid: string; active?: boolean }): Promise<TMute[]> {
    const system = await this.access.authorize(actor, 'systemStatus.view', input.system_cuid);
    return this.mutesOf(system.system_cuid, input.active);
  }

  /**
   * Mutes a device's state-driven alarms until `until` (states.mute on the device's system). An
   * active mute of the same device is ended by the new one. Writes a MUTE changelog entry.
   */
  async createMute(actor: Actor, input: { entity_cuid: string; until: Date; reason?: string | null }): Promise<TMute> {
    return this.ds.transaction(async (tx) => {
      const p = new SqlParams([input.entity_cuid]);
      const [device] = (await tx.query(
        `SELECT e.entity_cuid, e.name, s.system_cuid, s.timezone FROM entity e JOIN system s ON s.system_cuid = e.system_cuid
          WHERE e.entity_cuid = $1 AND ${visibleSystemSql(actor, p, 's')}
          FOR UPDATE OF e`,
        p.values,
      )) as { entity_cuid: string; name: string; system_cuid: string; timezone: string }[];
      if (!device) throw notFound('Device');
      await this.access.authorize(actor, 'states.mute', device.system_cuid, tx);
      const now = Date.now();
      if (input.until.getTime() <= now) throw fieldError(['until'], 'The end of the mute must be in the future');
      // A minute of slack for "30 days from now" picked in a form a moment ago.
      if (input.until.getTime() > now + MUTE_MAX_DAYS * DAY + 60_000) throw fieldError(['until'], `A mute lasts at most ${MUTE_MAX_DAYS} days`);
      const reason = input.reason?.trim() || null;
      // The new mute replaces a running one of the same device.
      const replacedCount = (
        (await tx.query(`UPDATE device_mute m SET ended_at = now(), ended_by = $2 WHERE m.entity_cuid = $1 AND ${runningMuteSql('m')} RETURNING m.mute_cuid`, [
          device.entity_cuid,
          actor.user_cuid,
        ])) as [unknown[], number]
      )[1];
      const mute_cuid = newCuid();
      await tx.query(
        `INSERT INTO device_mute (mute_cuid, entity_cuid, system_cuid, until, reason, created_by) VALUES ($1, $2, $3, $4, $5, $6)`,
        [mute_cuid, device.entity_cuid, device.system_cuid, input.until, reason, actor.user_cuid],
      );
      const until = formatTime(input.until, device.timezone);
      await writeAutomaticChangelog(tx, [
        {
          system_cuid: device.system_cuid,
          kind: 'MUTE',
          title: `Alarms of ${device.name} muted until ${until}`,
          message: [reason ? `Reason: ${reason}` : 'No reason given', replacedCount ? 'Replaces the mute that was running.' : null].filter(Boolean).join('\n'),
          user_cuid: actor.user_cuid,
          ref: mute_cuid,
        },
      ]);
      return this.oneMute(tx, mute_cuid);
    });
  }

  /** Ends a running mute now (states.mute on its system). Writes a MUTE changelog entry. */
  async endMute(actor: Actor, mute_cuid: string): Promise<TMute> {
    return this.ds.transaction(async (tx) => {
      const p = new SqlParams([mute_cuid]);
      const [mute] = (await tx.query(
        `SELECT m.mute_cuid, m.system_cuid, m.ended_at, m.until, e.name AS device_name
           FROM device_mute m JOIN entity e ON e.entity_cuid = m.entity_cuid JOIN system s ON s.system_cuid = m.system_cuid
          WHERE m.mute_cuid = $1 AND ${visibleSystemSql(actor, p, 's')}
          FOR UPDATE OF m`,
        p.values,
      )) as { mute_cuid: string; system_cuid: string; ended_at: Date | null; until: Date; device_name: string }[];
      if (!mute) throw notFound('Mute');
      await this.access.authorize(actor, 'states.mute', mute.system_cuid, tx);
      if (mute.ended_at || new Date(mute.until).getTime() <= Date.now()) {
        throw new TRPCError({ code: 'BAD_REQUEST', message: 'This mute has already ended' });
      }
      await tx.query(`UPDATE device_mute SET ended_at = now(), ended_by = $2 WHERE mute_cuid = $1`, [mute_cuid, actor.user_cuid]);
      await writeAutomaticChangelog(tx, [
        { system_cuid: mute.system_cuid, kind: 'MUTE', title: `Mute of ${mute.device_name} ended`, message: null, user_cuid: actor.user_cuid, ref: mute_cuid },
      ]);
      return this.oneMute(tx, mute_cuid);
    });
  }

  private async oneMute(tx: EntityManager, mute_cuid: string): Promise<TMute> {
    const [row] = (await tx.query(`SELECT ${MUTE_COLUMNS} FROM device_mute m JOIN entity e ON e.entity_cuid = m.entity_cuid WHERE m.mute_cuid = $1`, [mute_cuid])) as TMute[];
    return row;
  }
}

interface DeviceRow {
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

/** "24 Nov 2026, 14:00 (Africa/Nairobi)" in the system's time zone. */
function formatTime(d: Date, timezone: string): string {
  try {
    return `${new Intl.DateTimeFormat('en-GB', { timeZone: timezone, dateStyle: 'medium', timeStyle: 'short' }).format(d)} (${timezone})`;
  } catch {
    return d.toISOString();
  }
}
