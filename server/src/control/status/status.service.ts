import { Injectable } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import type { Actor } from '../../../../shared/access/policy';
import { notFound } from '../../common/errors';
import { newCuid } from '../../common/ids';
import { fieldError } from '../../common/field-error';
import { SystemAccessService } from '../../systems/system-access.service';
import { decodeBundle, decodeValue, type HistoryRow, keyInWords, readStateMeta, toSegments } from './state-decode';
import { StatusRepository } from './status.repository';
import { MUTE_MAX_DAYS, STATUS_RANGE_DEFAULT_HOURS, STATUS_RANGE_MAX_DAYS, type TMute, type TSystemStatus } from './status.schema';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Mutes a list answers at most. */
const MUTE_LIST_MAX = 200;
/** History rows one status call reads at most (a flapping controller over 31 days). */
const HISTORY_ROWS_MAX = 20_000;

/**
 * The system status view and device mutes (docs/control.md, "System status view" and "Mutes").
 * Every read is limited to a system the caller sees (else NOT_FOUND, like a missing one).
 */
@Injectable()
export class SystemStatusService {
  constructor(
    private readonly rows: StatusRepository,
    private readonly access: SystemAccessService,
  ) {}

  /** Devices with their latest readable state, controllers with their online timeline, active mutes: five queries (status.repository.ts). */
  async get(actor: Actor, input: { system_cuid: string; from?: Date; to?: Date }): Promise<TSystemStatus> {
    const system = await this.access.authorize(actor, 'systemStatus.view', input.system_cuid);
    const now = Date.now();
    const to = new Date(Math.min(input.to?.getTime() ?? now, now));
    const from = input.from ?? new Date(to.getTime() - STATUS_RANGE_DEFAULT_HOURS * HOUR);
    if (from.getTime() >= to.getTime()) throw fieldError(['from'], 'The start must be before the end');
    if (to.getTime() - from.getTime() > STATUS_RANGE_MAX_DAYS * DAY) throw fieldError(['from'], `At most ${STATUS_RANGE_MAX_DAYS} days`);
    const id = system.system_cuid;

    const [devices, enumRows, controllers, history, mutes] = await Promise.all([
      this.rows.devices(actor, id),
      // Latest value of every Enum log parameter of the devices' types, and every parameter's name (bundle keys that are parameters).
      this.rows.parameters(actor, id),
      this.rows.controllers(actor, id),
      // The changes in (from, to], and per controller the last one at or before `from` (its state then).
      this.rows.history(actor, id, from, to, HISTORY_ROWS_MAX),
      this.rows.mutes(actor, id, true, MUTE_LIST_MAX),
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

  /** A system's mutes (systemStatus.view). */
  async listMutes(actor: Actor, input: { system_cuid: string; active?: boolean }): Promise<TMute[]> {
    const system = await this.access.authorize(actor, 'systemStatus.view', input.system_cuid);
    return this.rows.mutes(actor, system.system_cuid, input.active, MUTE_LIST_MAX);
  }

  /**
   * Mutes a device's state-driven alarms until `until` (states.mute on the device's system). An
   * active mute of the same device is ended by the new one. Writes a MUTE changelog entry.
   */
  async createMute(actor: Actor, input: { entity_cuid: string; until: Date; reason?: string | null }): Promise<TMute> {
    return this.rows.transaction(async (tx) => {
      const device = await this.rows.lockVisibleDevice(actor, tx, input.entity_cuid);
      if (!device) throw notFound('Device');
      await this.access.authorize(actor, 'states.mute', device.system_cuid, tx);
      const now = Date.now();
      if (input.until.getTime() <= now) throw fieldError(['until'], 'The end of the mute must be in the future');
      // A minute of slack for "30 days from now" picked in a form a moment ago.
      if (input.until.getTime() > now + MUTE_MAX_DAYS * DAY + 60_000) throw fieldError(['until'], `A mute lasts at most ${MUTE_MAX_DAYS} days`);
      const reason = input.reason?.trim() || null;
      // The new mute replaces a running one of the same device.
      const replacedCount = await this.rows.endRunningMutes(actor, tx, device.entity_cuid);
      const mute_cuid = newCuid();
      await this.rows.insertMute(actor, tx, { mute_cuid, entity_cuid: device.entity_cuid, system_cuid: device.system_cuid, until: input.until, reason });
      const until = formatTime(input.until, device.timezone);
      await this.rows.writeChangelog(actor, tx, [
        {
          system_cuid: device.system_cuid,
          kind: 'MUTE',
          title: `Alarms of ${device.name} muted until ${until}`,
          message: [reason ? `Reason: ${reason}` : 'No reason given', replacedCount ? 'Replaces the mute that was running.' : null].filter(Boolean).join('\n'),
          user_cuid: actor.user_cuid,
          ref: mute_cuid,
        },
      ]);
      return (await this.rows.oneMute(actor, tx, mute_cuid))!;
    });
  }

  /** Ends a running mute now (states.mute on its system). Writes a MUTE changelog entry. */
  async endMute(actor: Actor, mute_cuid: string): Promise<TMute> {
    return this.rows.transaction(async (tx) => {
      const mute = await this.rows.lockVisibleMute(actor, tx, mute_cuid);
      if (!mute) throw notFound('Mute');
      await this.access.authorize(actor, 'states.mute', mute.system_cuid, tx);
      if (mute.ended_at || new Date(mute.until).getTime() <= Date.now()) {
        throw new TRPCError({ code: 'BAD_REQUEST', message: 'This mute has already ended' });
      }
      await this.rows.endMute(actor, tx, mute_cuid);
      await this.rows.writeChangelog(actor, tx, [
        { system_cuid: mute.system_cuid, kind: 'MUTE', title: `Mute of ${mute.device_name} ended`, message: null, user_cuid: actor.user_cuid, ref: mute_cuid },
      ]);
      return (await this.rows.oneMute(actor, tx, mute_cuid))!;
    });
  }
}

/** "24 Nov 2026, 14:00 (Africa/Nairobi)" in the system's time zone. */
function formatTime(d: Date, timezone: string): string {
  try {
    return `${new Intl.DateTimeFormat('en-GB', { timeZone: timezone, dateStyle: 'medium', timeStyle: 'short' }).format(d)} (${timezone})`;
  } catch {
    return d.toISOString();
  }
}
