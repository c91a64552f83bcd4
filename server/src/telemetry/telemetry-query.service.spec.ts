import { actor, codeOf } from '../../../test/factories/rules';
import type { Caller } from '../tenancy/visibility';
import type { Scope } from '../access/scope';
import { scopeOf } from '../access/scope';
import { SystemAccessRepository, type VisibleSystem } from '../systems/system-access.repository';
import { SystemAccessService } from '../systems/system-access.service';
import type { DeviceParameterRow, EnergyRow, SeriesQuery, SeriesRow, TelemetryQueryRepository } from './telemetry-query.repository';
import { TelemetryQueryService } from './telemetry-query.service';

/** The rules of TelemetryQueryService over in-memory stand-ins of its repositories (no database). */

const SYSTEM: VisibleSystem = { system_cuid: 'sys1', company_cuid: 'A', name: 'Farm', timezone: 'Africa/Nairobi', shares: [] };
const sees = (caller: Caller) => {
  const s: Scope = 'memberships' in caller ? scopeOf(caller) : caller;
  return s.superuser || s.companies.includes(SYSTEM.company_cuid);
};

function world(rows: { series?: SeriesRow[]; parameters?: DeviceParameterRow[]; energy?: EnergyRow[] } = {}) {
  const asked: SeriesQuery[] = [];
  const queries = {
    deviceSystem: async (c: Caller, entity_cuid: string) => (entity_cuid === 'dev1' && sees(c) ? SYSTEM : undefined),
    series: async (c: Caller, q: SeriesQuery) => (asked.push(q), sees(c) ? (rows.series ?? []) : []),
    controllers: async (c: Caller) => (sees(c) ? [{ controller_id: 'ctrl', name: 'Ctrl', online_state: 'ONLINE' as const, last_seen_at: null }] : []),
    deviceParameters: async (c: Caller) => (sees(c) ? (rows.parameters ?? []) : []),
    deviceStates: async () => [],
    energy: async (c: Caller) => (sees(c) ? (rows.energy ?? []) : []),
  } satisfies Omit<TelemetryQueryRepository, 'ds'>;
  const access = { visible: async (c: Caller, id: string) => (id === SYSTEM.system_cuid && sees(c) ? SYSTEM : undefined) };
  const sut = new TelemetryQueryService(queries as unknown as TelemetryQueryRepository, new SystemAccessService(access as unknown as SystemAccessRepository));
  return { sut, asked };
}

const basicA = actor('u1', 'A', 3);
const expertA = actor('u2', 'A', 2);
const basicB = actor('u3', 'B', 3);
const window = { from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-02T00:00:00Z') };

describe('TelemetryQueryService', () => {
  it('series: a foreign or missing device answers NOT_FOUND alike; a permission the caller lacks there, FORBIDDEN', async () => {
    const { sut } = world();
    const input = { entity_cuid: 'dev1', parameter_ids: ['p'], points: 100, ...window };
    expect(await codeOf(sut.series(basicB, 'systems.view', input))).toBe('NOT_FOUND: Device not found');
    expect(await codeOf(sut.series(basicA, 'systems.view', { ...input, entity_cuid: 'nope' }))).toBe('NOT_FOUND: Device not found');
    expect(await codeOf(sut.series(basicA, 'metadata.change', input))).toMatch(/^FORBIDDEN/);
    expect(await codeOf(sut.series(basicA, 'systems.view', input))).toBe('OK');
  });

  it("series: each parameter asked once, its points in the repository's order, the system's zone by default", async () => {
    const point = (parameter_id: string, t: number) => ({ parameter_id, t, min: 1, max: 2, avg: 1.5, last: 2, count: 3 });
    const { sut, asked } = world({ series: [point('a', 1), point('a', 2), point('b', 1)] });
    const out = await sut.series(basicA, 'systems.view', { entity_cuid: 'dev1', parameter_ids: ['a', 'c', 'a', 'b'], points: 100, ...window });
    expect(asked[0]).toMatchObject({ parameter_ids: ['a', 'c', 'b'], zone: SYSTEM.timezone, resolution: out.resolution });
    expect(out.timezone).toBe(SYSTEM.timezone);
    expect(out.series.map((s) => [s.parameter_id, s.points.map((p) => p.t)])).toEqual([
      ['a', [1, 2]],
      ['c', []],
      ['b', [1]],
    ]);
  });

  it('latest: the inventory (controllers, device types) only for who may view controllers and devices', async () => {
    const parameters: DeviceParameterRow[] = [
      {
        entity_cuid: 'dev1',
        name: 'Battery',
        entitytype_id: 'bat',
        controller_id: 'ctrl',
        parameter_id: 'soc',
        description: 'SoC',
        translations: null,
        unit: '%',
        type: 'FloatLogParameter',
        value: 50,
        timestamp: null,
      },
    ];
    const { sut } = world({ parameters });
    const basic = await sut.latest(basicA, 'systems.view', 'sys1');
    expect(basic).toMatchObject({
      inventory: false,
      controllers: [],
      devices: [{ entity_cuid: 'dev1', entitytype_id: null, controller_id: null, parameters: [{ value: 50, translations: {} }] }],
    });
    const expert = await sut.latest(expertA, 'systems.view', 'sys1');
    expect(expert).toMatchObject({ inventory: true, controllers: [{ controller_id: 'ctrl' }], devices: [{ entitytype_id: 'bat', controller_id: 'ctrl' }] });
    expect(await codeOf(sut.latest(basicB, 'systems.view', 'sys1'))).toBe('NOT_FOUND: System not found');
  });

  it('energy: kWh to three decimals, the total over the periods with a value', async () => {
    const { sut } = world({
      energy: [
        { start: new Date(0), label: '2026-03-01', kwh: 1.23456 },
        { start: new Date(1), label: '2026-03-02', kwh: null },
        { start: new Date(2), label: '2026-03-03', kwh: 2.0004 },
      ],
    });
    const out = await sut.energy(basicA, 'systems.view', { system_cuid: 'sys1', granularity: 'day', ...window });
    expect(out.periods.map((p) => p.kwh)).toEqual([1.235, null, 2]);
    expect(out.total_kwh).toBe(3.235);
    expect(out.timezone).toBe(SYSTEM.timezone);
  });
});
