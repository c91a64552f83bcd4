import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import type { ValidParameterRow } from '../../server/src/telemetry/ingest-validator';
import { TelemetryWriter } from '../../server/src/telemetry/telemetry-writer.service';
import { HttpClient } from '../factories/http-client';
import { ingest, startTelemetryTestApp, type TelemetryTestApp } from '../mqtt/support/telemetry-app';

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** What a chart shows, aggregated by hand from the raw samples. */
function expected(samples: { t: number; v: number }[], start: number, width: number, from: number, to: number) {
  const buckets = new Map<number, { t: number; min: number; max: number; sum: number; count: number; last: number; lastT: number }>();
  for (const s of samples) {
    if (s.t < from || s.t >= to) continue;
    const b = start + Math.floor((s.t - start) / width) * width;
    const x = buckets.get(b) ?? { t: b, min: Infinity, max: -Infinity, sum: 0, count: 0, last: 0, lastT: -Infinity };
    x.min = Math.min(x.min, s.v);
    x.max = Math.max(x.max, s.v);
    x.sum += s.v;
    x.count++;
    if (s.t > x.lastT) {
      x.lastT = s.t;
      x.last = s.v;
    }
    buckets.set(b, x);
  }
  return [...buckets.values()].sort((a, b) => a.t - b.t).map((x) => ({ t: x.t, min: x.min, max: x.max, avg: x.sum / x.count, last: x.last, count: x.count }));
}

describe('telemetry queries (tRPC telemetry.series / latest / energy)', () => {
  let t: TelemetryTestApp;
  const as: Record<string, HttpClient> = {};
  // Ten days of one-minute samples ending at a whole day (UTC), far enough back to be complete.
  const end = Math.floor(Date.now() / DAY) * DAY - 2 * DAY;
  const start = end - 10 * DAY;
  const samples: { t: number; v: number }[] = [];

  beforeAll(async () => {
    t = await startTelemetryTestApp();
    for (const who of ['basic', 'other', 'expert']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
    for (let ts = start; ts < end; ts += MIN) samples.push({ t: ts, v: Math.round(50 + 40 * Math.sin(ts / (5 * HOUR)) + ((ts / MIN) % 7)) });
    const rows: ValidParameterRow[] = samples.map((s, index) => ({
      index,
      entity_cuid: t.demo.battery,
      parameter_id: 'battery_soc',
      ts: new Date(s.t),
      min: null,
      max: null,
      value: s.v,
      tz: 'Africa/Nairobi',
    }));
    const writer = t.app.get(TelemetryWriter);
    // In arbitrary order and in several flushes, as late data arrives.
    const shuffled = [...rows].sort((a, b) => ((a.index * 7919) % 1000) - ((b.index * 7919) % 1000));
    for (let i = 0; i < shuffled.length; i += 3000) {
      await writer.write({ rows: shuffled.slice(i, i + 3000).map((row) => ({ seg: 0, row })), standard: [], states: [] });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const series = (c: HttpClient, input: Record<string, unknown>) =>
    c.query('telemetry.series', { entity_cuid: t.demo.battery, parameter_ids: ['battery_soc'], ...input });

  it('reads the coarsest resolution that still gives the points asked for, with exact min/max/avg/last/count', async () => {
    const cases = [
      { from: end - 3 * DAY, to: end, points: 72, resolution: '1h', width: HOUR },
      { from: end - 3 * DAY, to: end, points: 300, resolution: '5m', width: 15 * MIN },
      { from: end - 2 * HOUR, to: end, points: 1000, resolution: 'raw', width: 7200 },
    ];
    for (const c of cases) {
      const res = await series(as.basic, { from: new Date(c.from), to: new Date(c.to), points: c.points });
      expect(res.status).toBe(200);
      expect({ resolution: res.data.resolution, bucket_seconds: res.data.bucket_seconds }).toEqual({
        resolution: c.resolution,
        bucket_seconds: c.width / 1000,
      });
      const want = expected(samples, c.resolution === 'raw' ? c.from : start, c.width, c.from, c.to);
      const got = res.data.series[0].points;
      expect(got.length).toBe(want.length);
      expect(got.length).toBeLessThanOrEqual(c.points);
      expect(got.length).toBeGreaterThanOrEqual(Math.min(c.points / 2, (c.to - c.from) / MIN));
      got.forEach((p: any, i: number) => {
        const w = want[i];
        expect({ t: p.t, min: p.min, max: p.max, last: p.last, count: p.count }).toEqual({ t: w.t, min: w.min, max: w.max, last: w.last, count: w.count });
        expect(p.avg).toBeCloseTo(w.avg, 9);
      });
    }
  });

  it('cuts day buckets at local midnight of the system (or of the zone asked for)', async () => {
    const local = await series(as.basic, { from: new Date(start + DAY), to: new Date(end), points: 9 });
    expect(local.data.resolution).toBe('1d');
    expect(local.data.timezone).toBe('Africa/Nairobi');
    const points = local.data.series[0].points;
    expect(points.every((p: any) => new Date(p.t).getUTCHours() === 21)).toBe(true);
    // A full local day holds 1440 minutes.
    expect(points.slice(1, -1).every((p: any) => p.count === 1440)).toBe(true);
    const utc = await series(as.basic, { from: new Date(start + DAY), to: new Date(end), points: 9, timezone: 'UTC' });
    expect(utc.data.resolution).toBe('1h'); // the day rollup is cut in the system's zone
    expect(utc.data.series[0].points.every((p: any) => new Date(p.t).getUTCHours() === 0)).toBe(true);
    const want = expected(samples, start, DAY, start + DAY, end);
    expect(utc.data.series[0].points.map((p: any) => [p.t, p.min, p.max, p.count])).toEqual(want.map((w) => [w.t, w.min, w.max, w.count]));
  });

  it('answers every parameter asked for (empty when nothing is stored) and refuses bad input', async () => {
    const res = await series(as.basic, { parameter_ids: ['battery_soc', 'battery_voltage'], from: new Date(end - DAY), to: new Date(end), points: 24 });
    expect(res.data.series.map((s: any) => [s.parameter_id, s.points.length])).toEqual([
      ['battery_soc', 24],
      ['battery_voltage', 0],
    ]);
    const backwards = await series(as.basic, { from: new Date(end), to: new Date(end - DAY) });
    expect(backwards.status).toBe(400);
    const zone = await series(as.basic, { from: new Date(end - DAY), to: new Date(end), timezone: 'Mars/Olympus' });
    expect(zone.status).toBe(400);
  });

  it('scopes by the policy: another company’s device answers NOT_FOUND exactly like a missing one', async () => {
    const input = { from: new Date(end - DAY), to: new Date(end), points: 10 };
    const foreign = await series(as.other, input);
    const missing = await series(as.other, { ...input, entity_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz' });
    expect(foreign.status).toBe(404);
    expect(foreign.error).toEqual(missing.error);
    const latest = await as.other.query('telemetry.latest', { system_cuid: t.demo.farm });
    expect(latest.status).toBe(404);
    const energy = await as.other.query('telemetry.energy', { system_cuid: t.demo.farm, from: new Date(end - DAY), to: new Date(end), granularity: 'day' });
    expect(energy.status).toBe(404);
    // The clinic is shared (read-only) with the demo company: its members see it.
    await t.query(
      `INSERT INTO entity (entity_cuid, name, entitytype_id, system_cuid) VALUES ('clinicmeter0000000000001', 'Clinic meter', 'pylontech-us5000', $1)`,
      [t.demo.clinic],
    );
    const shared = await as.basic.query('telemetry.series', { entity_cuid: 'clinicmeter0000000000001', parameter_ids: ['battery_soc'], ...input });
    expect(shared.status).toBe(200);
    const anonymous = await new HttpClient(t.baseUrl).query('telemetry.latest', { system_cuid: t.demo.farm });
    expect(anonymous.status).toBe(401);
  });

  it('latest: the newest value of each parameter of each device, and the controller’s state', async () => {
    const now = Date.now();
    const res0 = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, {
      rows: [
        { timestamp: now - 2 * MIN, entity_cuid: t.demo.pvCharger, parameter_id: 'pv_power', value: 1200 },
        { timestamp: now - MIN, entity_cuid: t.demo.pvCharger, parameter_id: 'pv_power', value: 1500 },
        { timestamp: now - 3 * MIN, entity_cuid: t.demo.pvCharger, parameter_id: 'pv_power', value: 900 }, // late, older
      ],
    });
    expect(res0.body.accepted).toBe(3);
    const res = await as.expert.query('telemetry.latest', { system_cuid: t.demo.farm });
    expect(res.status).toBe(200);
    expect(res.data.timezone).toBe('Africa/Nairobi');
    expect(res.data.inventory).toBe(true);
    expect(res.data.controllers).toEqual([
      { controller_id: DEMO_CONTROLLER_ID, name: 'Demo Farm Cerbo GX', online_state: 'ONLINE', last_seen_at: expect.any(Date) },
    ]);
    const pv = res.data.devices.find((d: any) => d.entity_cuid === t.demo.pvCharger);
    expect(pv.parameters.find((p: any) => p.parameter_id === 'pv_power')).toEqual({
      parameter_id: 'pv_power',
      description: 'PV power',
      // the French beside it (the seed's), shown to a reader whose language is French
      translations: { fr: { description: 'Puissance PV' } },
      unit: 'W',
      type: 'FloatLogParameter',
      value: 1500,
      text: null,
      timestamp: new Date(now - MIN),
    });
    const battery = res.data.devices.find((d: any) => d.entity_cuid === t.demo.battery);
    expect(battery.parameters.find((p: any) => p.parameter_id === 'battery_soc').timestamp).toEqual(new Date(end - MIN));
    expect(battery.parameters.find((p: any) => p.parameter_id === 'battery_current')).toMatchObject({ value: null, timestamp: null });
    expect(res.data.devices).toHaveLength(4);
  });

  it('latest: Enum values and the DeviceState read through the entity type meta ("Inverting", not 9)', async () => {
    const now = Date.now();
    const res0 = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, {
      rows: [{ timestamp: now - MIN, entity_cuid: t.demo.inverter, parameter_id: 'inverter_state', value: 9 }],
    });
    expect(res0.body.accepted).toBe(1);
    const res1 = await ingest(
      t.baseUrl,
      DEMO_CONTROLLER_ID,
      t.demo.demoToken,
      { states: [{ timestamp: now - MIN, entity_cuid: t.demo.inverter, state_bundle: { inverter_state: 3, mode: 'eco', faults: [] } }] },
      'states',
    );
    expect(res1.body.accepted).toBe(1);
    for (const who of ['expert', 'basic']) {
      const res = await as[who].query('telemetry.latest', { system_cuid: t.demo.farm });
      expect(res.status).toBe(200);
      const inverter = res.data.devices.find((d: any) => d.entity_cuid === t.demo.inverter);
      expect(inverter.parameters.find((p: any) => p.parameter_id === 'inverter_state')).toMatchObject({ value: 9, text: 'Inverting' });
      expect(inverter.state.timestamp).toEqual(new Date(now - MIN));
      expect(inverter.state.values).toEqual([
        { key: 'inverter_state', label: 'Inverter state', text: 'Bulk', decoded: true },
        { key: 'mode', label: 'Mode', text: 'eco', decoded: false },
      ]);
      expect(inverter.state.faults).toEqual([]);
      const battery = res.data.devices.find((d: any) => d.entity_cuid === t.demo.battery);
      expect(battery.state).toBeNull();
    }
  });

  it('latest for a Basic user: the current values by device, without the controller and device inventory (like controller.getList, which refuses them)', async () => {
    expect((await as.basic.query('controller.getList', { pagination: { page: 1, perPage: 10 }, filter: {} })).status).toBe(403);
    expect((await as.basic.query('entity.getList', { pagination: { page: 1, perPage: 10 }, filter: {} })).status).toBe(403);
    const res = await as.basic.query('telemetry.latest', { system_cuid: t.demo.farm });
    expect(res.status).toBe(200);
    expect(res.data.inventory).toBe(false);
    expect(res.data.controllers).toEqual([]);
    expect(res.text).not.toContain(DEMO_CONTROLLER_ID);
    expect(res.data.devices).toHaveLength(4);
    for (const d of res.data.devices) expect(d).toMatchObject({ entitytype_id: null, controller_id: null });
    const battery = res.data.devices.find((d: any) => d.entity_cuid === t.demo.battery);
    expect(battery.name).toEqual(expect.any(String));
    expect(battery.parameters.find((p: any) => p.parameter_id === 'battery_soc').timestamp).toEqual(new Date(end - MIN));
  });

  it('energy per local day and month from the PV counter, counting a counter reset from zero', async () => {
    // Local (Nairobi, UTC+3) days D1 and D2, five and four days ago.
    const d1 = Math.floor(Date.now() / DAY) * DAY - 5 * DAY - 3 * HOUR;
    const d2 = d1 + DAY;
    const standard = [
      { timestamp: d1 - HOUR, total_pv_kwh: 95 }, // the evening before: the base for D1
      { timestamp: d1 + 30 * MIN, total_pv_kwh: 100 },
      { timestamp: d1 + 12 * HOUR, total_pv_kwh: 110 },
      { timestamp: d1 + 23 * HOUR, total_pv_kwh: 115 },
      { timestamp: d2 + 6 * HOUR, total_pv_kwh: 120 },
      { timestamp: d2 + 12 * HOUR, total_pv_kwh: 2 }, // the controller was replaced: counter restarted
      { timestamp: d2 + 18 * HOUR, total_pv_kwh: 5 },
    ];
    expect((await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, { standard })).body.accepted).toBe(7);
    const days = await as.basic.query('telemetry.energy', { system_cuid: t.demo.farm, from: new Date(d1), to: new Date(d2 + 2 * DAY), granularity: 'day' });
    expect(days.status).toBe(200);
    expect(days.data.periods.map((p: any) => p.kwh)).toEqual([20, 10, null]);
    expect(days.data.periods[0].start).toEqual(new Date(d1));
    expect(days.data.periods[0].label).toBe(new Date(d1 + 3 * HOUR).toISOString().slice(0, 10));
    expect(days.data.total_kwh).toBe(30);
    const months = await as.basic.query('telemetry.energy', {
      system_cuid: t.demo.farm,
      from: new Date(d1 - 40 * DAY),
      to: new Date(d2 + DAY),
      granularity: 'month',
    });
    expect(months.data.periods.every((p: any) => /^\d{4}-\d{2}$/.test(p.label))).toBe(true);
    // In the wider range 95 is the first reading (nothing before it to compare with).
    expect(months.data.total_kwh).toBe(30);
  });
});
