import { Injectable } from '@nestjs/common';
import { type Actor, can, type Permission } from '../../../shared/access/policy';
import { forbidden, notFound } from '../common/errors';
import { decodeBundle, decodeValue, keyInWords, readStateMeta, type StateMeta } from '../catalogue/state-decode';
import { SystemAccessService, type VisibleSystem } from '../systems/system-access.service';
import { planSeries, type SeriesPlan } from './series-plan';
import { TelemetryQueryRepository } from './telemetry-query.repository';
import type { TEnergyInput, TEnergyOutput, TLatestOutput, TResolution, TSeriesInput, TSeriesOutput, TSeriesPoint } from './telemetry.schema';

export { LAST_OF_GROUP } from './telemetry-query.repository';

/**
 * Chart queries, scoped by the policy: a device or system the caller may not see answers
 * NOT_FOUND exactly like a missing one. The SQL is in telemetry-query.repository.ts.
 */
@Injectable()
export class TelemetryQueryService {
  constructor(
    private readonly repo: TelemetryQueryRepository,
    private readonly access: SystemAccessService,
  ) {}

  /**
   * The device's system if the caller may see it (else NOT_FOUND, like a missing device) and
   * holds `permission` there (else FORBIDDEN). One query: a chart asks this on every call.
   */
  private async deviceSystem(actor: Actor, permission: Permission, entity_cuid: string): Promise<VisibleSystem> {
    const system = await this.repo.deviceSystem(actor, entity_cuid);
    if (!system) throw notFound('Device');
    if (!can(actor, permission, { company_cuid: system.company_cuid, shares: system.shares })) throw forbidden();
    return system;
  }

  async series(actor: Actor, permission: Permission, input: TSeriesInput, force?: { resolution: TResolution; plan?: SeriesPlan }): Promise<TSeriesOutput> {
    const system = await this.deviceSystem(actor, permission, input.entity_cuid);
    const zone = input.timezone ?? system.timezone;
    const rangeMs = input.to.getTime() - input.from.getTime();
    const plan = force?.plan ?? planSeries(rangeMs, input.points, zone, system.timezone);
    const resolution = force?.resolution ?? plan.resolution;
    const parameter_ids = [...new Set(input.parameter_ids)];
    const rows = await this.repo.series(actor, { entity_cuid: input.entity_cuid, parameter_ids, from: input.from, to: input.to, zone, plan, resolution });
    const byParameter = new Map<string, TSeriesPoint[]>(parameter_ids.map((p) => [p, []]));
    for (const r of rows) {
      byParameter.get(r.parameter_id)?.push({ t: r.t, min: r.min, max: r.max, avg: r.avg, last: r.last, count: r.count });
    }
    return {
      entity_cuid: input.entity_cuid,
      timezone: zone,
      resolution,
      bucket_seconds: plan.widthMs / 1000,
      from: input.from,
      to: input.to,
      series: parameter_ids.map((parameter_id) => ({ parameter_id, points: byParameter.get(parameter_id)! })),
    };
  }

  /** The plan a request would use (the bench compares it with the same buckets from raw rows). */
  plan(input: Pick<TSeriesInput, 'from' | 'to' | 'points'>, zone: string, rollupZone: string): SeriesPlan {
    return planSeries(input.to.getTime() - input.from.getTime(), input.points, zone, rollupZone);
  }

  /**
   * Current values of a visible system. The inventory detail (controllers with their online
   * state, each device's type and controller) follows spec §6 "controllers and devices view 2",
   * like controller.getList / entity.getList: a Basic user watches the values of the devices by
   * name (what the charts need) without it.
   */
  async latest(actor: Actor, permission: Permission, system_cuid: string): Promise<TLatestOutput> {
    const system = await this.access.authorize(actor, permission, system_cuid);
    const target = { company_cuid: system.company_cuid, shares: system.shares };
    const seesControllers = can(actor, 'controllers.view', target);
    const seesDevices = can(actor, 'devices.view', target);
    const controllers = !seesControllers ? [] : await this.repo.controllers(actor, system.system_cuid);
    const rows = await this.repo.deviceParameters(actor, system.system_cuid);
    // The entity types' metas and each device's latest DeviceState, to make Enum values and states readable.
    const stateRows = await this.repo.deviceStates(actor, system.system_cuid);
    const metaOf = new Map<string, StateMeta>();
    const stateOf = new Map<string, { timestamp: Date; bundle: unknown }>();
    for (const r of stateRows) {
      metaOf.set(r.entity_cuid, readStateMeta(r.meta));
      if (r.state_at) stateOf.set(r.entity_cuid, { timestamp: new Date(r.state_at), bundle: r.state_bundle });
    }
    const noMeta = readStateMeta(null);
    const devices = new Map<string, TLatestOutput['devices'][number]>();
    for (const r of rows) {
      let d = devices.get(r.entity_cuid);
      if (!d) {
        d = {
          entity_cuid: r.entity_cuid,
          name: r.name,
          entitytype_id: seesDevices ? r.entitytype_id : null,
          controller_id: seesDevices ? r.controller_id : null,
          parameters: [],
          state: null,
        };
        devices.set(r.entity_cuid, d);
      }
      if (r.parameter_id && r.type) {
        d.parameters.push({
          parameter_id: r.parameter_id,
          description: r.description,
          translations: r.translations ?? {},
          unit: r.unit,
          type: r.type,
          value: r.value,
          text:
            r.type === 'EnumLogParameter' && r.value !== null ? decodeValue(metaOf.get(r.entity_cuid) ?? noMeta, r.parameter_id, Number(r.value)).text : null,
          timestamp: r.timestamp,
        });
      }
    }
    for (const d of devices.values()) {
      const st = stateOf.get(d.entity_cuid);
      if (!st) continue;
      const labels = new Map(d.parameters.map((p) => [p.parameter_id, p.description ?? keyInWords(p.parameter_id)]));
      const decoded = decodeBundle(st.bundle, metaOf.get(d.entity_cuid) ?? noMeta, labels);
      d.state = {
        timestamp: st.timestamp,
        values: decoded.values.map((v) => ({ key: v.key, label: v.label, text: v.text, decoded: v.decoded })),
        faults: decoded.faults.map((f) => f.text),
        warnings: decoded.warnings.map((w) => w.text),
      };
    }
    return {
      system_cuid: system.system_cuid,
      name: system.name,
      timezone: system.timezone,
      inventory: seesControllers && seesDevices,
      controllers,
      devices: [...devices.values()],
    };
  }

  /**
   * Energy per local day or month from the total_pv_kwh counter: the sum of the increases between
   * consecutive readings, each counted in the period of the later reading (the first reading of
   * the range is compared with the last one before it). A counter that went down was reset: the
   * new reading counts from zero. Periods without any increase shown by readings answer null.
   */
  async energy(actor: Actor, permission: Permission, input: TEnergyInput): Promise<TEnergyOutput> {
    const system = await this.access.authorize(actor, permission, input.system_cuid);
    const tz = system.timezone;
    const unit = input.granularity;
    const rows = await this.repo.energy(actor, { system_cuid: system.system_cuid, granularity: unit, from: input.from, to: input.to }, tz);
    const periods = rows.map((r) => ({ start: r.start, label: r.label, kwh: r.kwh === null ? null : round3(r.kwh) }));
    const total = round3(periods.reduce((s, p) => s + (p.kwh ?? 0), 0));
    return { system_cuid: system.system_cuid, timezone: tz, granularity: unit, periods, total_kwh: total };
  }
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;
