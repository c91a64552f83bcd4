import { ControllerOnlineStateService } from '../../server/src/telemetry/controller-online-state.service';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { ingest, ManualClock, startTelemetryTestApp, type TelemetryTestApp } from '../mqtt/support/telemetry-app';

const S = 1000;

/**
 * Online state with a clock the test moves: heartbeats (and telemetry) over HTTP, the sweep called
 * by hand. Defaults: offline after 90 s of silence, a silence over 45 s is a dropout, 3 dropouts in
 * 15 min make a controller UNSTABLE until 10 min without one.
 */
describe('controller online state', () => {
  let t: TelemetryTestApp;
  let states: ControllerOnlineStateService;
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 8, 0, 0));

  beforeAll(async () => {
    t = await startTelemetryTestApp({ clock });
    states = t.app.get(ControllerOnlineStateService);
  });
  afterAll(async () => {
    await t?.close();
  });

  const heartbeat = async () => {
    const res = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, { uptime_s: 1 }, 'heartbeat');
    expect(res.status).toBe(200);
    await states.settle();
  };
  /** Heartbeats every `every` ms for `duration` ms (the clock moves, no real waiting). */
  const beat = async (duration: number, every = 30 * S) => {
    for (let elapsed = 0; elapsed < duration; elapsed += every) {
      clock.advance(every);
      await heartbeat();
    }
  };
  const state = async () => (await t.query(`SELECT online_state FROM controller_online_state WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]))[0].online_state;
  const history = async () =>
    await t.query<{ timestamp: Date; online_state: string }>(
      `SELECT "timestamp", online_state FROM controller_online_state_history WHERE controller_id = $1 ORDER BY "timestamp"`,
      [DEMO_CONTROLLER_ID],
    );

  it('stays ONLINE on regular heartbeats and writes no history for them', async () => {
    await heartbeat();
    await beat(5 * 60 * S);
    expect(await state()).toBe('ONLINE');
    expect(await states.sweep(clock.now())).toEqual([]);
    expect(await history()).toEqual([]);
  });

  it('goes OFFLINE only after the grace period, dated at last contact + grace, then ONLINE on the next contact', async () => {
    const last = clock.now().getTime();
    clock.advance(60 * S);
    expect(await states.sweep(clock.now())).toEqual([]); // 60 s of silence: still inside the grace period
    expect(await state()).toBe('ONLINE');
    clock.advance(40 * S);
    expect(await states.sweep(clock.now())).toEqual([{ controller_id: DEMO_CONTROLLER_ID, state: 'OFFLINE', at: new Date(last + 90 * S) }]);
    expect(await state()).toBe('OFFLINE');
    expect(await states.sweep(clock.advance(60 * S))).toEqual([]); // no second row while it stays silent

    // Telemetry counts as contact too.
    const back = clock.advance(5 * S);
    const res = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, { rows: [] });
    expect(res.status).toBe(200);
    await states.settle();
    expect(await state()).toBe('ONLINE');
    expect(await history()).toEqual([
      { timestamp: new Date(last + 90 * S), online_state: 'OFFLINE' },
      { timestamp: back, online_state: 'ONLINE' },
    ]);
  });

  it('turns UNSTABLE on the third dropout within the window, and back to ONLINE only after 10 calm minutes', async () => {
    // Two short silences (50 s: dropouts, not long enough for OFFLINE). With the OFFLINE above that makes three.
    await beat(60 * S);
    clock.advance(50 * S);
    await heartbeat();
    expect(await state()).toBe('ONLINE');
    await beat(60 * S);
    clock.advance(50 * S);
    const flap = clock.now();
    await heartbeat();
    expect(await state()).toBe('UNSTABLE');

    // Calm again: still UNSTABLE for the next 9.5 minutes, even once the old dropouts leave the window.
    await beat(9.5 * 60 * S);
    expect(await state()).toBe('UNSTABLE');
    await beat(60 * S);
    expect(await state()).toBe('ONLINE');
    const rows = await history();
    expect(rows.map((r) => r.online_state)).toEqual(['OFFLINE', 'ONLINE', 'UNSTABLE', 'ONLINE']);
    expect(rows[2].timestamp).toEqual(flap);
    expect(rows[3].timestamp.getTime() - flap.getTime()).toBeGreaterThanOrEqual(10 * 60 * S);
  });

  it('an UNSTABLE controller that goes silent is OFFLINE, comes back UNSTABLE, and calms down to ONLINE', async () => {
    // Flap three times quickly.
    for (let i = 0; i < 3; i++) {
      await beat(30 * S);
      clock.advance(50 * S);
      await heartbeat();
    }
    expect(await state()).toBe('UNSTABLE');
    const last = clock.now().getTime();
    clock.advance(91 * S);
    expect((await states.sweep(clock.now())).map((x) => [x.state, x.at.getTime()])).toEqual([['OFFLINE', last + 90 * S]]);

    // Back, flapping history still in the window: UNSTABLE straight away.
    clock.advance(5 * S);
    await heartbeat();
    expect(await state()).toBe('UNSTABLE');
    // Calm heartbeats: ONLINE again once the dropouts left the 15-minute window.
    await beat(16 * 60 * S);
    expect(await state()).toBe('ONLINE');
    const transitions = (await history()).map((r) => r.online_state);
    expect(transitions.slice(-4)).toEqual(['UNSTABLE', 'OFFLINE', 'UNSTABLE', 'ONLINE']);
  });

  it('a controller that claims ONLINE but is never heard from goes OFFLINE after the grace period from the first sweep', async () => {
    const [{ controllertype_cuid }] = await t.query(`SELECT controllertype_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
    await t.query(`INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, name) VALUES ('silent-ctrl', $1, $2, 'Silent')`, [
      controllertype_cuid,
      t.demo.demoCompany,
    ]);
    await t.query(`INSERT INTO controller_online_state (controller_id, online_state) VALUES ('silent-ctrl', 'ONLINE')`);
    const first = clock.now().getTime();
    expect(await states.sweep(clock.now())).toEqual([]);
    clock.advance(45 * S);
    await heartbeat(); // keep the demo controller alive meanwhile
    const after = await states.sweep(clock.advance(45 * S));
    expect(after).toEqual([{ controller_id: 'silent-ctrl', state: 'OFFLINE', at: new Date(first + 90 * S) }]);
  });
});
