import { DEMO_CONTROLLER_ID } from '../../../server/src/seed/demo-seed';
import type { TelemetryTestApp } from './telemetry-app';

/**
 * Two companies' controllers on one write lane, for the tests that one tenant's input never fails
 * another's write: `demo-ctrl-1` (demo company) sends the poison, `other-ctrl-1` (the other
 * company, one battery in the clinic) sends good rows at the same moment.
 */
export const VICTIM_CONTROLLER = 'other-ctrl-1';
export const VICTIM_BATTERY = 'clinicbattery00000000001';
/** A value the test database refuses (a CHECK constraint added for the test), and a state key likewise. */
export const DB_REFUSED_VALUE = 13131313;
export const DB_REFUSED_STATE_KEY = 'refused_by_the_database';

/** Settings that put every controller on one write lane and let concurrent submissions share a flush. */
export const ONE_LANE = { TELEMETRY_FLUSH_CONCURRENCY: '1', TELEMETRY_BATCH_MAX_WAIT_MS: '150' };

export async function addVictimAndDatabaseRefusals(t: TelemetryTestApp): Promise<void> {
  const [{ controllertype_cuid }] = await t.query(`SELECT controllertype_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
  await t.query(`INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, system_cuid, name) VALUES ($1, $2, $3, $4, 'Clinic')`, [
    VICTIM_CONTROLLER,
    controllertype_cuid,
    t.demo.otherCompany,
    t.demo.clinic,
  ]);
  await t.query(`INSERT INTO entity (entity_cuid, name, controller_id, entitytype_id, system_cuid) VALUES ($1, 'Clinic battery', $2, 'pylontech-us5000', $3)`, [
    VICTIM_BATTERY,
    VICTIM_CONTROLLER,
    t.demo.clinic,
  ]);
  // "Fails in the database for another reason": constraints the validator knows nothing about.
  await t.query(`ALTER TABLE parameter_log ADD CONSTRAINT test_refused_value CHECK (value <> ${DB_REFUSED_VALUE})`);
  await t.query(`ALTER TABLE device_state ADD CONSTRAINT test_refused_state CHECK (NOT (state_bundle ? '${DB_REFUSED_STATE_KEY}'))`);
}

export interface PoisonKind {
  name: string;
  kind: 'telemetry' | 'states';
  /** The poison batch of round `round` (timestamps at `ts(second)` of one shared 5-minute bucket). */
  body(t: TelemetryTestApp, round: number, ts: (second: number) => string): unknown;
  /** What its sender must get: its rows refused one by one (200), or the batch refused for good (not 503). */
  expect: 'rows refused' | 'batch refused';
}

const row = (t: TelemetryTestApp, timestamp: string, value: number, extra: object = {}) => ({
  timestamp,
  entity_cuid: t.demo.battery,
  parameter_id: 'battery_voltage',
  value,
  ...extra,
});

export const POISONS: PoisonKind[] = [
  {
    name: 'a value at the float limit (one per round into the same rollup buckets)',
    kind: 'telemetry',
    body: (t, round, ts) => ({ rows: [row(t, ts(round * 2), 1.7e308)] }),
    expect: 'rows refused',
  },
  {
    name: 'values whose sum overflows inside one batch',
    kind: 'telemetry',
    body: (t, round, ts) => ({ rows: [row(t, ts(100 + round * 3), 1e308), row(t, ts(101 + round * 3), 1e308), row(t, ts(102 + round * 3), -1e308)] }),
    expect: 'rows refused',
  },
  {
    name: 'min and max at the float limits',
    kind: 'telemetry',
    body: (t, round, ts) => ({ rows: [row(t, ts(150 + round), 1, { min: -1.7976931348623157e308, max: 1.7976931348623157e308 })] }),
    expect: 'rows refused',
  },
  {
    name: 'a row the database refuses',
    kind: 'telemetry',
    body: (t, round, ts) => ({ rows: [row(t, ts(200 + round), DB_REFUSED_VALUE)] }),
    expect: 'batch refused',
  },
  {
    name: 'a state the database refuses',
    kind: 'states',
    body: (t, round, ts) => ({ states: [{ timestamp: ts(250 + round), entity_cuid: t.demo.battery, state_bundle: { [DB_REFUSED_STATE_KEY]: true } }] }),
    expect: 'batch refused',
  },
];

/** Start of a 5-minute bucket 2 h ago (well inside the backfill window); `ts(s)` = s seconds into it (s < 300). */
export function bucketClock(): (second: number) => string {
  const base = Math.floor((Date.now() - 2 * 3_600_000) / 300_000) * 300_000;
  return (second: number) => new Date(base + second * 1000).toISOString();
}
