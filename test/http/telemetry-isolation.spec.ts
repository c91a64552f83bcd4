import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { ingest, startTelemetryTestApp, type TelemetryTestApp } from '../mqtt/support/telemetry-app';
import { addVictimAndDatabaseRefusals, bucketClock, ONE_LANE, POISONS, VICTIM_BATTERY, VICTIM_CONTROLLER } from '../mqtt/support/poison';

/**
 * One tenant's input never fails another tenant's write (HTTP ingest). The batcher writes several
 * controllers' submissions in one transaction; here every controller shares one write lane, and
 * in each round the demo company's controller sends a poison while the other company's
 * controller sends good rows at the same moment. (The MQTT twin is in test/mqtt/isolation.spec.ts.)
 */
describe('HTTP ingest: one controller’s bad batch never fails another company’s', () => {
  let t: TelemetryTestApp;
  const ROUNDS = 6;

  beforeAll(async () => {
    t = await startTelemetryTestApp({ env: ONE_LANE });
    await addVictimAndDatabaseRefusals(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const stored = async (entity: string, parameter: string) =>
    (await t.query(`SELECT count(*)::int AS n FROM parameter_log WHERE entity_cuid = $1 AND parameter_id = $2`, [entity, parameter]))[0].n as number;

  it.each(POISONS.map((p, k) => [p.name, p, k] as const))('%s: the other company always gets 200 and its rows are stored', async (_name, poison, k) => {
    const ts = bucketClock();
    let victimRows = 0;
    const victimBefore = await stored(VICTIM_BATTERY, 'battery_soc');
    for (let round = 0; round < ROUNDS; round++) {
      const good = {
        rows: [0, 1, 2].map((i) => ({ timestamp: ts(round * 10 + i + 3 + k / 100), entity_cuid: VICTIM_BATTERY, parameter_id: 'battery_soc', value: 40 + i })),
      };
      const [bad, ok] = await Promise.all([
        ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, poison.body(t, round, ts), poison.kind),
        ingest(t.baseUrl, VICTIM_CONTROLLER, t.demo.otherToken, good),
      ]);
      expect({ round, status: ok.status, body: ok.body }).toEqual({ round, status: 200, body: { accepted: 3, duplicates: 0, rejected: [] } });
      victimRows += 3;
      // The sender learns that this batch can never be stored as it is: no 5xx that makes it retry forever.
      if (poison.expect === 'rows refused') {
        expect(bad.status).toBe(200);
        expect(bad.body.accepted).toBe(0);
        expect(bad.body.rejected.length).toBeGreaterThan(0);
        for (const r of bad.body.rejected) expect(r.reason).toMatch(/must be between -1e15 and 1e15/);
      } else {
        expect(bad.status).toBe(422);
        expect(bad.body).toEqual({ code: 'UNPROCESSABLE', message: expect.any(String), messageCode: expect.any(String) });
        expect(bad.text).not.toMatch(/constraint|violat|INSERT|SELECT|at .*\.ts/i);
      }
    }
    expect(await stored(VICTIM_BATTERY, 'battery_soc')).toBe(victimBefore + victimRows);
  });

  it('a poison alone is refused the same way, and the same controller’s next good batch is stored', async () => {
    const ts = bucketClock();
    for (const poison of POISONS) {
      const bad = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, poison.body(t, 50, ts), poison.kind);
      expect({ poison: poison.name, status: bad.status }).toEqual({ poison: poison.name, status: poison.expect === 'rows refused' ? 200 : 422 });
    }
    const good = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, {
      rows: [{ timestamp: ts(299), entity_cuid: t.demo.battery, parameter_id: 'battery_voltage', value: 1e15 }],
    });
    expect(good.body).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
  });

  it('rollups at the value bound cannot overflow: the largest allowed values sum up in every resolution', async () => {
    const ts = bucketClock();
    const rows = Array.from({ length: 290 }, (_, i) => ({
      timestamp: ts(i),
      entity_cuid: t.demo.pvCharger,
      parameter_id: 'pv_power',
      value: i % 2 ? 1e15 : -1e15,
    }));
    const res = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, { rows });
    expect(res.status).toBe(200);
    expect(res.body.accepted).toBe(290);
    const same = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, {
      rows: rows.map((r, i) => ({ ...r, timestamp: ts(i + 0.5), value: 1e15 })),
    });
    expect(same.status).toBe(200);
    const [day] = await t.query(`SELECT sum, count FROM parameter_rollup_1d WHERE entity_cuid = $1 AND parameter_id = 'pv_power'`, [t.demo.pvCharger]);
    expect(day.count).toBe(580);
    expect(day.sum).toBe(290e15);
  });
});
