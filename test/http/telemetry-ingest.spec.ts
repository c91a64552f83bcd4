import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { ingest, startTelemetryTestApp, type TelemetryTestApp } from '../mqtt/support/telemetry-app';

/**
 * HTTP ingest as a controller maker sees it: POST /api/ingest/<controller_id>/telemetry with an
 * API token. Runs on PostgreSQL when TEST_DATABASE_URL is set.
 */
describe('HTTP telemetry ingest', () => {
  let t: TelemetryTestApp;
  const MIN = 60_000;
  // A fixed recent hour (inside the 31-day backfill window), aligned so bucket maths are readable.
  const base = Math.floor((Date.now() - 2 * 3_600_000) / 3_600_000) * 3_600_000;
  const at = (minutes: number) => new Date(base + minutes * MIN).toISOString();

  beforeAll(async () => {
    t = await startTelemetryTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const stored = async (entity: string, parameter: string) =>
    await t.query<{ timestamp: Date; value: number }>(
      `SELECT "timestamp", value, min, max FROM parameter_log WHERE entity_cuid = $1 AND parameter_id = $2 ORDER BY "timestamp"`,
      [entity, parameter],
    );
  const rollup = async (resolution: string, entity: string, parameter: string) =>
    await t.query<{ bucket: Date; min: number; max: number; sum: number; count: number; last: number; last_ts: Date }>(
      `SELECT bucket, min, max, sum, count, last, last_ts FROM parameter_rollup_${resolution} WHERE entity_cuid = $1 AND parameter_id = $2 ORDER BY bucket`,
      [entity, parameter],
    );

  it('stores a batch, answers after the commit, and a retransmit duplicates nothing (rows nor rollups)', async () => {
    const rows = [0, 1, 2, 3, 4].map((m) => ({ timestamp: at(m), entity_cuid: t.demo.battery, parameter_id: 'battery_voltage', value: 50 + m }));
    const first = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, { batch_id: 'v-1', rows });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ batch_id: 'v-1', accepted: 5, duplicates: 0, rejected: [] });
    // Committed by the time the answer arrived.
    expect((await stored(t.demo.battery, 'battery_voltage')).map((r) => r.value)).toEqual([50, 51, 52, 53, 54]);

    const again = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, { batch_id: 'v-1', rows });
    expect(again.body).toEqual({ batch_id: 'v-1', accepted: 0, duplicates: 5, rejected: [] });
    // A partial overlap: two old, one new.
    const overlap = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, {
      rows: [rows[3], rows[4], { ...rows[4], timestamp: at(5), value: 55 }],
    });
    expect(overlap.body).toEqual({ accepted: 1, duplicates: 2, rejected: [] });
    expect(await stored(t.demo.battery, 'battery_voltage')).toHaveLength(6);
    const [five] = await rollup('5m', t.demo.battery, 'battery_voltage');
    expect(five).toMatchObject({ min: 50, max: 54, sum: 260, count: 5, last: 54 });
    const [hour] = await rollup('1h', t.demo.battery, 'battery_voltage');
    expect(hour).toMatchObject({ min: 50, max: 55, sum: 315, count: 6, last: 55 });
  });

  it('repeats inside one batch count as duplicates (first one wins)', async () => {
    const row = { timestamp: at(10), entity_cuid: t.demo.battery, parameter_id: 'battery_temperature', value: 25 };
    const res = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, { rows: [row, { ...row, value: 99 }, row] });
    expect(res.body).toEqual({ accepted: 1, duplicates: 2, rejected: [] });
    expect((await stored(t.demo.battery, 'battery_temperature')).map((r) => r.value)).toEqual([25]);
  });

  it('accepts out-of-order rows and a day of buffered backfill, merging late rows into the rollups', async () => {
    const entity = t.demo.pvCharger;
    // Newest first, then an older block, then yesterday's backfill (epoch milliseconds this time).
    const late = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, {
      rows: [
        { timestamp: at(9), entity_cuid: entity, parameter_id: 'pv_power', value: 900 },
        { timestamp: at(6), entity_cuid: entity, parameter_id: 'pv_power', value: 600 },
      ],
    });
    expect(late.body).toMatchObject({ accepted: 2, duplicates: 0 });
    const earlier = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, {
      rows: [
        { timestamp: at(7), entity_cuid: entity, parameter_id: 'pv_power', value: 100, min: 50, max: 1500 },
        { timestamp: at(5), entity_cuid: entity, parameter_id: 'pv_power', value: 500 },
      ],
    });
    expect(earlier.body).toMatchObject({ accepted: 2, duplicates: 0 });
    const yesterday = Array.from({ length: 24 }, (_, h) => ({
      timestamp: base - 24 * 3_600_000 + h * 3_600_000,
      entity_cuid: entity,
      parameter_id: 'pv_power',
      value: h * 10,
    }));
    const backfill = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, { rows: yesterday });
    expect(backfill.body).toEqual({ accepted: 24, duplicates: 0, rejected: [] });

    expect(await stored(entity, 'pv_power')).toHaveLength(28);
    // The 5-minute bucket [base+5, base+10): min/max widened by the row's own min/max; last = latest timestamp (09), not the last sent.
    const buckets = await rollup('5m', entity, 'pv_power');
    const current = buckets.find((b) => b.bucket.getTime() === base + 5 * MIN)!;
    expect(current).toMatchObject({ min: 50, max: 1500, sum: 2100, count: 4, last: 900 });
    expect(current.last_ts.getTime()).toBe(base + 9 * MIN);
    // Every raw row is in exactly one bucket of each resolution.
    for (const resolution of ['5m', '1h', '1d']) {
      const total = (await rollup(resolution, entity, 'pv_power')).reduce((n, b) => n + b.count, 0);
      expect({ resolution, total }).toEqual({ resolution, total: 28 });
    }
    // Day buckets start at local midnight of the system's zone (Africa/Nairobi, UTC+3).
    for (const b of await rollup('1d', entity, 'pv_power')) expect(b.bucket.getUTCHours()).toBe(21);
  });

  it('refuses bad rows one by one with their index and a reason, and keeps the good ones', async () => {
    // A second controller of the demo company, and a device of the other company's clinic.
    const [{ controllertype_cuid }] = await t.query(`SELECT controllertype_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
    await t.query(`INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, system_cuid, name) VALUES ('demo-ctrl-2', $1, $2, $3, 'Second')`, [
      controllertype_cuid,
      t.demo.demoCompany,
      t.demo.workshop,
    ]);
    await t.query(
      `INSERT INTO entity (entity_cuid, name, controller_id, entitytype_id, system_cuid) VALUES ('workshopbattery000000001', 'Workshop battery', 'demo-ctrl-2', 'pylontech-us5000', $1)`,
      [t.demo.workshop],
    );
    await t.query(
      `INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, system_cuid, name) VALUES ('other-ctrl-1', $1, $2, $3, 'Clinic')`,
      [controllertype_cuid, t.demo.otherCompany, t.demo.clinic],
    );
    await t.query(
      `INSERT INTO entity (entity_cuid, name, controller_id, entitytype_id, system_cuid) VALUES ('clinicbattery00000000001', 'Clinic battery', 'other-ctrl-1', 'pylontech-us5000', $1)`,
      [t.demo.clinic],
    );

    const b = t.demo.battery;
    const ok = (m: number) => ({ timestamp: at(20 + m), entity_cuid: b, parameter_id: 'battery_soc', value: 60 + m });
    const rows: unknown[] = [
      ok(0),
      { timestamp: at(21), entity_cuid: 'nosuchdevice', parameter_id: 'battery_soc', value: 1 },
      { timestamp: at(21), entity_cuid: 'workshopbattery000000001', parameter_id: 'battery_soc', value: 1 },
      { timestamp: at(21), entity_cuid: 'clinicbattery00000000001', parameter_id: 'battery_soc', value: 1 },
      { timestamp: at(21), entity_cuid: b, parameter_id: 'no_such_parameter', value: 1 },
      { timestamp: at(21), entity_cuid: b, parameter_id: 'pv_power', value: 1 },
      { timestamp: '2025-13-45 99:00', entity_cuid: b, parameter_id: 'battery_soc', value: 1 },
      { timestamp: '2025-06-01T10:00:00', entity_cuid: b, parameter_id: 'battery_soc', value: 1 },
      { timestamp: at(21), entity_cuid: b, parameter_id: 'battery_soc', value: 'high' },
      { timestamp: at(21), entity_cuid: b, parameter_id: 'battery_soc' },
      { timestamp: new Date(Date.now() + 3_600_000).toISOString(), entity_cuid: b, parameter_id: 'battery_soc', value: 1 },
      { timestamp: new Date(Date.now() - 40 * 86_400_000).toISOString(), entity_cuid: b, parameter_id: 'battery_soc', value: 1 },
      { timestamp: at(21), entity_cuid: b, parameter_id: 'battery_soc', value: 5, min: 6 },
      { timestamp: at(21), entity_cuid: t.demo.genset, parameter_id: 'genset_running', value: 2 },
      'not a row',
      ok(1),
      { timestamp: at(22), entity_cuid: t.demo.genset, parameter_id: 'genset_running', value: true },
    ];
    const res = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, { rows });
    expect(res.status).toBe(200);
    expect(res.body.accepted).toBe(3);
    expect(res.body.duplicates).toBe(0);
    expect(res.body.rejected).toEqual([
      { index: 1, reason: "unknown entity 'nosuchdevice'" },
      { index: 2, reason: "entity 'workshopbattery000000001' is on controller 'demo-ctrl-2', not on 'demo-ctrl-1'" },
      // Another company's device reads as unknown: no hint that it exists.
      { index: 3, reason: "unknown entity 'clinicbattery00000000001'" },
      { index: 4, reason: "unknown parameter 'no_such_parameter'" },
      { index: 5, reason: "parameter 'pv_power' is not logged by entity type 'pylontech-us5000'" },
      { index: 6, reason: expect.stringMatching(/^timestamp must be ISO 8601/) },
      { index: 7, reason: expect.stringMatching(/^timestamp must be ISO 8601/) },
      { index: 8, reason: 'value must be a finite number or a boolean' },
      { index: 9, reason: 'value is required' },
      { index: 10, reason: 'timestamp is more than 300 s in the future' },
      { index: 11, reason: 'timestamp is older than the 31-day backfill window' },
      { index: 12, reason: 'min must not exceed value' },
      { index: 13, reason: 'value of a boolean parameter must be 0, 1, true or false' },
      { index: 14, reason: expect.stringMatching(/expected object/) },
    ]);
    expect((await stored(b, 'battery_soc')).map((r) => r.value)).toEqual([60, 61]);
    expect((await stored(t.demo.genset, 'genset_running')).map((r) => r.value)).toEqual([1]);
    expect(await t.query(`SELECT 1 FROM parameter_log WHERE entity_cuid IN ('workshopbattery000000001', 'clinicbattery00000000001')`)).toEqual([]);
  });

  it('stores the PV energy counter of the controller’s system and refuses another system', async () => {
    const res = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, {
      standard: [
        { timestamp: at(0), total_pv_kwh: 1000.25 },
        { timestamp: at(5), system_cuid: t.demo.farm, total_pv_kwh: 1001.5 },
        { timestamp: at(5), system_cuid: t.demo.clinic, total_pv_kwh: 1 },
        { timestamp: at(6), total_pv_kwh: -3 },
      ],
    });
    expect(res.body).toEqual({
      accepted: 2,
      duplicates: 0,
      rejected: [
        { index: 2, list: 'standard', reason: `system '${t.demo.clinic}' is not the system of controller 'demo-ctrl-1'` },
        { index: 3, list: 'standard', reason: 'total_pv_kwh: must be between 0 and 99,999,999,999.999 kWh' },
      ],
    });
    const rows = await t.query(`SELECT system_cuid, total_pv_kwh FROM system_standard_value_log ORDER BY "timestamp"`);
    expect(rows).toEqual([
      { system_cuid: t.demo.farm, total_pv_kwh: '1000.250' },
      { system_cuid: t.demo.farm, total_pv_kwh: '1001.500' },
    ]);
  });

  it('refuses a token of another company, no token, a revoked token: nothing written', async () => {
    const count = async () => (await t.query(`SELECT count(*)::int AS n FROM parameter_log`))[0].n;
    const before = await count();
    const body = { rows: [{ timestamp: at(30), entity_cuid: t.demo.battery, parameter_id: 'battery_soc', value: 1 }] };
    const foreign = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.otherToken, body);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({
      code: 'FORBIDDEN',
      message: "This token may not send data for controller 'demo-ctrl-1'",
      messageCode: "This token may not send data for controller '{controller}'",
    });
    // A controller that does not exist answers exactly the same.
    const unknown = await ingest(t.baseUrl, 'no-such-controller', t.demo.demoToken, body);
    expect(unknown.status).toBe(403);
    expect(unknown.body.message).toBe("This token may not send data for controller 'no-such-controller'");
    const none = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, undefined, body);
    expect(none.status).toBe(401);
    const forged = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken.slice(0, -4) + 'AAAA', body);
    expect(forged.status).toBe(401);
    await t.query(`UPDATE auth_token SET revoked_at = now() WHERE company_cuid = $1`, [t.demo.otherCompany]);
    const revoked = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.otherToken, body);
    expect(revoked.status).toBe(401);
    expect(await count()).toBe(before);
  });

  it('answers malformed requests with a clear 4xx, never a 500 or a stack', async () => {
    const tok = t.demo.demoToken;
    const cases = [
      await ingest(t.baseUrl, DEMO_CONTROLLER_ID, tok, undefined, 'telemetry', '{"rows": [1, 2'),
      await ingest(t.baseUrl, DEMO_CONTROLLER_ID, tok, [1, 2, 3]),
      await ingest(t.baseUrl, DEMO_CONTROLLER_ID, tok, { rows: 'many' }),
      await ingest(t.baseUrl, DEMO_CONTROLLER_ID, tok, undefined, 'telemetry', 'rows=1', 'application/x-www-form-urlencoded'),
      await ingest(t.baseUrl, DEMO_CONTROLLER_ID, tok, { rows: Array.from({ length: 10_001 }, () => ({})) }),
      await ingest(t.baseUrl, DEMO_CONTROLLER_ID, tok, undefined, 'telemetry', JSON.stringify({ rows: [], pad: 'x'.repeat(5 * 1024 * 1024) })),
      await ingest(t.baseUrl, DEMO_CONTROLLER_ID, tok, { states: [{ timestamp: at(1), entity_cuid: t.demo.battery, state_bundle: 'on' }] }, 'states'),
      await ingest(t.baseUrl, 'bad id with spaces', tok, { rows: [] }),
    ];
    expect(cases.map((c) => [c.status, c.body?.code])).toEqual([
      [400, 'PARSE_ERROR'],
      [400, 'BAD_REQUEST'],
      [400, 'BAD_REQUEST'],
      [415, 'UNSUPPORTED_MEDIA_TYPE'],
      [413, 'PAYLOAD_TOO_LARGE'],
      [413, 'PAYLOAD_TOO_LARGE'],
      [200, undefined],
      [403, 'FORBIDDEN'],
    ]);
    expect(cases[2].body.message).toMatch(/rows/);
    expect(cases[6].body).toEqual({ accepted: 0, duplicates: 0, rejected: [{ index: 0, list: 'states', reason: expect.stringMatching(/state_bundle/) }] });
    for (const c of cases) expect(c.text).not.toMatch(/at .*\.(js|ts):\d+|SELECT|INSERT/);
  });

  it('stores DeviceState bundles idempotently', async () => {
    const states = [
      { timestamp: at(1), entity_cuid: t.demo.inverter, state_bundle: { mode: 'inverting', alarms: [] } },
      { timestamp: at(2), entity_cuid: t.demo.inverter, state_bundle: { mode: 'bulk', alarms: ['low battery'] } },
    ];
    expect((await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, { states }, 'states')).body).toEqual({ accepted: 2, duplicates: 0, rejected: [] });
    expect((await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, { states }, 'states')).body).toEqual({ accepted: 0, duplicates: 2, rejected: [] });
    const rows = await t.query(`SELECT state_bundle FROM device_state WHERE entity_cuid = $1 ORDER BY "timestamp"`, [t.demo.inverter]);
    expect(rows.map((r) => r.state_bundle.mode)).toEqual(['inverting', 'bulk']);
  });

  it('parallel retransmits of overlapping batches store every row exactly once and account for each', async () => {
    const e = t.demo.inverter;
    const batch = (from: number) =>
      Array.from({ length: 200 }, (_, i) => ({ timestamp: at(60 + (from + i) / 60), entity_cuid: e, parameter_id: 'ac_output_power', value: from + i }));
    // 8 senders, each batch overlapping the next by half.
    const answers = await Promise.all(
      [0, 100, 200, 300, 0, 100, 200, 300].map((from) => ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, { rows: batch(from) })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const accepted = answers.reduce((n, a) => n + a.body.accepted, 0);
    const duplicates = answers.reduce((n, a) => n + a.body.duplicates, 0);
    expect(accepted).toBe(500);
    expect(accepted + duplicates).toBe(1600);
    const [{ n, distinct }] = await t.query(
      `SELECT count(*)::int AS n, count(DISTINCT "timestamp")::int AS distinct FROM parameter_log WHERE entity_cuid = $1 AND parameter_id = 'ac_output_power'`,
      [e],
    );
    expect({ n, distinct }).toEqual({ n: 500, distinct: 500 });
    const [{ total }] = await t.query(`SELECT sum(count)::int AS total FROM parameter_rollup_1h WHERE entity_cuid = $1 AND parameter_id = 'ac_output_power'`, [
      e,
    ]);
    expect(total).toBe(500);
  });
});
