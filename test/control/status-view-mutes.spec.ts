import { DEMO_CONTROLLER_ID, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { addMember } from '../factories/users';
import type { HttpClient } from '../factories/http-client';
import { type AlertTestApp, eventsOf, ingest, startAlertApp } from '../alerts/support';

/**
 * The system status view and device mutes over HTTP, on the real engine and ingest: scoping,
 * readable states, the online timeline from history rows, mutes and the engine honouring them.
 * Runs on PostgreSQL when TEST_DATABASE_URL is set.
 */
describe('system status view and mutes', () => {
  let t: AlertTestApp;
  const as: Record<string, HttpClient> = {};
  const HOUR = 3_600_000;
  const now = Date.now();

  beforeAll(async () => {
    t = await startAlertApp();
    await addMember(t.db.dataSource, 'other-expert@demo.local', OTHER_COMPANY_NAME, 2);
    await addMember(t.db.dataSource, 'other-installer@demo.local', OTHER_COMPANY_NAME, 1);
    for (const who of ['installer', 'expert', 'basic', 'other-expert', 'other-installer']) as[who] = await t.client(`${who}@demo.local`);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the farm to its company (level 2), refuses Basic (403) and another company (NOT_FOUND); a share sees its system', async () => {
    const ok = await as.expert.query('systemStatus.get', { system_cuid: t.demo.farm });
    expect(ok.status).toBe(200);
    expect(ok.data.devices.map((d: { entity_cuid: string }) => d.entity_cuid)).toEqual(expect.arrayContaining([t.demo.inverter, t.demo.battery]));
    expect(ok.data.controllers.map((c: { controller_id: string }) => c.controller_id)).toEqual([DEMO_CONTROLLER_ID]);

    const basic = await as.basic.query('systemStatus.get', { system_cuid: t.demo.farm });
    expect(basic.status).toBe(403);
    const foreign = await as['other-expert'].query('systemStatus.get', { system_cuid: t.demo.farm });
    expect(foreign.status).toBe(404);
    const missing = await as['other-expert'].query('systemStatus.get', { system_cuid: 'nosuchsystem' });
    expect(missing.status).toBe(404);
    expect(foreign.error?.message).toBe(missing.error?.message);
    // The workshop is shared with the other company; the clinic (read-only) with the demo company.
    expect((await as['other-expert'].query('systemStatus.get', { system_cuid: t.demo.workshop })).status).toBe(200);
    expect((await as.expert.query('systemStatus.get', { system_cuid: t.demo.clinic })).status).toBe(200);
    expect((await as['other-expert'].query('deviceMute.list', { system_cuid: t.demo.farm })).status).toBe(404);
    // A range longer than 31 days is refused as input, not a 500.
    const long = await as.expert.query('systemStatus.get', { system_cuid: t.demo.farm, from: new Date(now - 40 * 24 * HOUR) });
    expect(long.status).toBe(400);
  });

  it('decodes the latest DeviceState and Enum parameters through the type meta, faults and warnings apart', async () => {
    const ts = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
    const states = await ingest(
      t.baseUrl,
      DEMO_CONTROLLER_ID,
      t.demo.demoToken,
      {
        states: [
          { timestamp: ts(20), entity_cuid: t.demo.inverter, state_bundle: { inverter_state: 0 } },
          {
            timestamp: ts(10),
            entity_cuid: t.demo.inverter,
            state_bundle: { inverter_state: 9, ac_output_power: 1200, faults: [2], warnings: ['low_battery'], firmware_mode: 'eco' },
          },
        ],
      },
      'states',
    );
    expect(states.status).toBe(200);
    const rows = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, t.demo.demoToken, {
      rows: [{ timestamp: ts(9), entity_cuid: t.demo.inverter, parameter_id: 'inverter_state', value: 9 }],
    });
    expect(rows.status).toBe(200);

    const res = await as.expert.query('systemStatus.get', { system_cuid: t.demo.farm });
    expect(res.status).toBe(200);
    const inverter = res.data.devices.find((d: { entity_cuid: string }) => d.entity_cuid === t.demo.inverter);
    expect(inverter.state.timestamp.toISOString()).toBe(ts(10));
    // Keys alphabetically (no `states` in the demo meta); labels from the log parameters, else the key in words.
    expect(inverter.state.values).toEqual([
      { key: 'ac_output_power', label: 'AC output power', value: 1200, text: '1200', decoded: false },
      { key: 'firmware_mode', label: 'Firmware mode', value: 'eco', text: 'eco', decoded: false },
      { key: 'inverter_state', label: 'Inverter state', value: 9, text: 'Inverting', decoded: true },
    ]);
    // enums.faults is not in the demo meta: the code is shown as it is; enums.inverter_state names 2 but not for faults.
    expect(inverter.state.faults).toEqual([{ code: 2, text: '2' }]);
    expect(inverter.state.warnings).toEqual([{ code: 'low_battery', text: 'low_battery' }]);
    expect(inverter.enums).toEqual([{ parameter_id: 'inverter_state', label: 'Inverter state', value: 9, text: 'Inverting', timestamp: new Date(ts(9)) }]);
    const battery = res.data.devices.find((d: { entity_cuid: string }) => d.entity_cuid === t.demo.battery);
    expect(battery.state).toBeNull();

    // The meta may name keys and fault codes, and hide keys.
    await t.query(`UPDATE entity_type_meta SET meta = meta || $1::jsonb WHERE entitytype_id = 'victron-multiplus-ii'`, [
      JSON.stringify({
        states: { inverter_state: { order: 1 }, firmware_mode: { label: 'Mode', order: 2 }, ac_output_power: { hidden: true } },
        enums: { inverter_state: { 0: 'Off', 9: 'Inverting' }, faults: { 2: 'Overload' } },
      }),
    ]);
    const again = (await as.expert.query('systemStatus.get', { system_cuid: t.demo.farm })).data.devices.find(
      (d: { entity_cuid: string }) => d.entity_cuid === t.demo.inverter,
    );
    expect(again.state.values.map((v: { label: string; text: string }) => [v.label, v.text])).toEqual([
      ['Inverter state', 'Inverting'],
      ['Mode', 'eco'],
    ]);
    expect(again.state.faults).toEqual([{ code: 2, text: 'Overload' }]);
  });

  it('draws the controller timeline from the history, with the state at `from`', async () => {
    await t.query(`DELETE FROM controller_online_state_history WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
    const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR);
    for (const [h, s] of [
      [40, 'OFFLINE'],
      [30, 'ONLINE'],
      [10, 'OFFLINE'],
      [9, 'ONLINE'],
      [2, 'UNSTABLE'],
    ] as const) {
      await t.query(`INSERT INTO controller_online_state_history (controller_id, "timestamp", online_state) VALUES ($1, $2, $3)`, [
        DEMO_CONTROLLER_ID,
        at(h),
        s,
      ]);
    }
    const from = at(26);
    const to = at(1);
    const res = await as.expert.query('systemStatus.get', { system_cuid: t.demo.farm, from, to });
    expect(res.status).toBe(200);
    expect(res.data.from).toEqual(from);
    expect(res.data.to).toEqual(to);
    const [ctrl] = res.data.controllers;
    expect(ctrl.segments).toEqual([
      { state: 'ONLINE', from, to: at(10) },
      { state: 'OFFLINE', from: at(10), to: at(9) },
      { state: 'ONLINE', from: at(9), to: at(2) },
      { state: 'UNSTABLE', from: at(2), to },
    ]);
    expect(['ONLINE', 'OFFLINE', 'UNSTABLE']).toContain(ctrl.online_state);
  });

  it('mutes: an installer mutes and ends (MUTE changelog entries); Expert 403, another company NOT_FOUND, bad ends refused', async () => {
    const until = new Date(Date.now() + 4 * HOUR);
    expect((await as.expert.mutate('deviceMute.create', { entity_cuid: t.demo.inverter, until })).status).toBe(403);
    const foreign = await as['other-installer'].mutate('deviceMute.create', { entity_cuid: t.demo.inverter, until });
    expect(foreign.status).toBe(404);
    expect((await as['other-installer'].mutate('deviceMute.create', { entity_cuid: 'nosuchdevice', until })).error?.message).toBe(foreign.error?.message);
    expect((await as.installer.mutate('deviceMute.create', { entity_cuid: t.demo.inverter, until: new Date(Date.now() - 1000) })).status).toBe(400);
    expect((await as.installer.mutate('deviceMute.create', { entity_cuid: t.demo.inverter, until: new Date(Date.now() + 31 * 24 * HOUR) })).status).toBe(400);

    const created = await as.installer.mutate('deviceMute.create', { entity_cuid: t.demo.inverter, until, reason: 'Replacing the fan' });
    expect(created.status).toBe(200);
    expect(created.data).toMatchObject({
      entity_cuid: t.demo.inverter,
      system_cuid: t.demo.farm,
      reason: 'Replacing the fan',
      active: true,
      created_by_name: 'Demo Installer',
      until,
    });
    const listed = await as.expert.query('deviceMute.list', { system_cuid: t.demo.farm, active: true });
    expect(listed.data.map((m: { mute_cuid: string }) => m.mute_cuid)).toEqual([created.data.mute_cuid]);
    const status = await as.expert.query('systemStatus.get', { system_cuid: t.demo.farm });
    expect(status.data.mutes.map((m: { mute_cuid: string }) => m.mute_cuid)).toEqual([created.data.mute_cuid]);
    expect(status.data.devices.find((d: { entity_cuid: string }) => d.entity_cuid === t.demo.inverter).muted_until).toEqual(until);

    expect((await as.expert.mutate('deviceMute.end', { mute_cuid: created.data.mute_cuid })).status).toBe(403);
    expect((await as['other-installer'].mutate('deviceMute.end', { mute_cuid: created.data.mute_cuid })).status).toBe(404);
    const ended = await as.installer.mutate('deviceMute.end', { mute_cuid: created.data.mute_cuid });
    expect(ended.status).toBe(200);
    expect(ended.data).toMatchObject({ active: false, ended_by_name: 'Demo Installer' });
    expect((await as.installer.mutate('deviceMute.end', { mute_cuid: created.data.mute_cuid })).status).toBe(400);
    expect((await as.expert.query('deviceMute.list', { system_cuid: t.demo.farm, active: true })).data).toEqual([]);

    const log = await t.query(
      `SELECT kind::text AS kind, title, message, ref, user_cuid IS NOT NULL AS who FROM system_changelog WHERE ref = $1 ORDER BY "timestamp"`,
      [created.data.mute_cuid],
    );
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ kind: 'MUTE', who: true, message: 'Reason: Replacing the fan' });
    expect(log[0].title).toMatch(/^Alarms of .+ muted until .+\(Africa\/Nairobi\)$/);
    expect(log[1]).toMatchObject({ kind: 'MUTE', title: expect.stringMatching(/^Mute of .+ ended$/) });

    // A read-only share (the clinic, for the demo company) cannot mute.
    await t.query(
      `INSERT INTO entity (entity_cuid, name, entitytype_id, system_cuid) VALUES ('clinicinverter', 'Clinic inverter', 'victron-multiplus-ii', $1)`,
      [t.demo.clinic],
    );
    expect((await as.installer.mutate('deviceMute.create', { entity_cuid: 'clinicinverter', until })).status).toBe(403);
  });

  it('the engine: a state rule on a muted device writes its log and status but no event; after the mute ends, events again', async () => {
    const c = await t.client('installer@demo.local');
    const trig = await c.mutate('notificationTrigger.create', {
      data: {
        name: 'Battery alarm',
        message: '{device}: {value}',
        release_message: 'ok',
        system_cuid: t.demo.farm,
        args: { kind: 'state', entity_cuid: t.demo.battery, key: 'alarm', op: 'equals', value: 'overtemp' },
      },
    });
    expect(trig.error).toBeUndefined();
    const id = trig.data.data.trigger_cuid as string;
    const mute = await as.installer.mutate('deviceMute.create', { entity_cuid: t.demo.battery, until: new Date(Date.now() + HOUR), reason: 'Maintenance' });
    expect(mute.status).toBe(200);
    const ts = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
    const send = (bundles: [number, string][]) =>
      ingest(
        t.baseUrl,
        DEMO_CONTROLLER_ID,
        t.demo.demoToken,
        { states: bundles.map(([m, alarm]) => ({ timestamp: ts(m), entity_cuid: t.demo.battery, state_bundle: { alarm } })) },
        'states',
      );

    expect(
      (
        await send([
          [8, 'none'],
          [7, 'overtemp'],
        ])
      ).status,
    ).toBe(200);
    await t.engine.settle();
    expect(await eventsOf(t, id)).toEqual([]);
    const [status] = await t.query(`SELECT trigger_state FROM notification_trigger_status WHERE trigger_cuid = $1`, [id]);
    expect(status.trigger_state).toBe('TRIGGERED');
    const logs = await t.query(`SELECT trigger_state, query->>'muted' AS muted FROM notification_trigger_log WHERE trigger_cuid = $1`, [id]);
    expect(logs).toEqual([{ trigger_state: 'TRIGGERED', muted: 'true' }]);

    expect((await as.installer.mutate('deviceMute.end', { mute_cuid: mute.data.mute_cuid })).status).toBe(200);
    expect(
      (
        await send([
          [6, 'none'],
          [5, 'overtemp'],
        ])
      ).status,
    ).toBe(200);
    await t.engine.settle();
    expect(await eventsOf(t, id)).toEqual([
      ['RELEASED', ts(6)],
      ['TRIGGERED', ts(5)],
    ]);
  });
});
