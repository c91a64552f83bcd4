import { DEMO_CONTROLLER_ID, DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { writeAutomaticChangelog } from '../../server/src/systems/automatic-changelog';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';

const list = (filter: Record<string, unknown> = {}) => ({ pagination: { page: 1, perPage: 100 }, filter });

/**
 * The automatic changelog over HTTP: kinds and the kind filter, automatic entries refuse edit and
 * delete, a changed configuration (controller, device, data processor) writes one CONFIGURATION
 * entry in the write's transaction and an unchanged one none. PostgreSQL with TEST_DATABASE_URL.
 */
describe('automatic changelog: kinds, read-only portal entries, configuration changes', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  let farm: string;
  let inverter: string;
  let userCuid: string;
  const q = (sql: string, p?: unknown[]) => t.db.dataSource.query(sql, p);
  const configEntries = async () =>
    (await q(`SELECT title, message, ref, user_cuid FROM system_changelog WHERE kind = 'CONFIGURATION' AND system_cuid = $1 ORDER BY "timestamp", log_cuid`, [
      farm,
    ])) as {
      title: string;
      message: string;
      ref: string;
      user_cuid: string;
    }[];

  beforeAll(async () => {
    t = await startTestApp();
    for (const who of ['installer', 'expert', 'basic']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
    [{ system_cuid: farm }] = await q(`SELECT system_cuid FROM system WHERE name = $1`, [DEMO_SYSTEMS.farm]);
    [{ entity_cuid: inverter }] = await q(`SELECT entity_cuid FROM entity WHERE entitytype_id = 'victron-multiplus-ii' AND system_cuid = $1`, [farm]);
    [{ user_cuid: userCuid }] = await q(`SELECT user_cuid FROM "user" WHERE email = 'installer@demo.local'`);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a changed controller configuration writes one CONFIGURATION entry with a summary; the same configuration none', async () => {
    await q(`UPDATE controller SET config = $2 WHERE controller_id = $1`, [
      DEMO_CONTROLLER_ID,
      JSON.stringify({ grid: { limit_w: 5000 }, mode: 'eco', old: 1 }),
    ]);
    const before = (await configEntries()).length;
    const res = await as.installer.mutate('controller.update', {
      id: DEMO_CONTROLLER_ID,
      data: { config: { mode: 'eco', grid: { limit_w: 6000 }, extra: 'x'.repeat(100) } },
    });
    expect(res.status).toBe(200);
    const entries = (await configEntries()).slice(before);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ title: 'Configuration of Demo Farm Cerbo GX changed', ref: DEMO_CONTROLLER_ID, user_cuid: userCuid });
    expect(entries[0].message.split('\n')).toEqual(['~ grid.limit_w: 5000 → 6000', `+ extra = "${'x'.repeat(38)}…`, '- old']);

    // The same configuration (keys in another order), or only the name: nothing.
    expect(
      (
        await as.installer.mutate('controller.update', {
          id: DEMO_CONTROLLER_ID,
          data: { config: { extra: 'x'.repeat(100), grid: { limit_w: 6000 }, mode: 'eco' } },
        })
      ).status,
    ).toBe(200);
    expect((await as.installer.mutate('controller.update', { id: DEMO_CONTROLLER_ID, data: { name: 'Demo Farm Cerbo GX' } })).status).toBe(200);
    expect((await configEntries()).length).toBe(before + 1);
  });

  it('a device configuration change through entity.update writes its entry; a refused write writes none', async () => {
    const before = (await configEntries()).length;
    expect((await as.expert.mutate('entity.update', { id: inverter, data: { config: { max_charge_a: 40 } } })).status).toBe(403);
    expect((await configEntries()).length).toBe(before);
    const [{ config: current }] = await q(`SELECT config FROM entity WHERE entity_cuid = $1`, [inverter]);
    const res = await as.installer.mutate('entity.update', { id: inverter, data: { config: { ...current, max_charge_a: 40 } } });
    expect(res.status).toBe(200);
    const entries = (await configEntries()).slice(before);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ ref: inverter, message: '+ max_charge_a = 40' });
    expect(entries[0].title).toMatch(/^Configuration of .+ changed$/);
  });

  it('lists kind and ref, filters by kind (one or a list), and refuses to change or delete automatic entries', async () => {
    const manual = await as.expert.mutate('systemChangelog.create', { system_cuid: farm, title: 'Replaced a fuse', message: 'F3' });
    expect(manual.status).toBe(200);
    await writeAutomaticChangelog(t.db.dataSource, [
      { system_cuid: farm, kind: 'COMMAND', title: 'Restart of demo-ctrl-1: SUCCESS', user_cuid: userCuid, ref: 'cmd-1' },
    ]);

    const all = await as.expert.query('systemChangelog.getList', list({ system_cuid: farm }));
    expect(all.status).toBe(200);
    const kinds = new Set(all.data.data.map((e: { kind: string }) => e.kind));
    expect([...kinds].sort()).toEqual(['COMMAND', 'CONFIGURATION', 'MANUAL']);
    const manualOnly = await as.expert.query('systemChangelog.getList', list({ system_cuid: farm, kind: 'MANUAL' }));
    // The seeded entry and ours, every one MANUAL.
    expect(manualOnly.data.data.map((e: { title: string }) => e.title)).toContain('Replaced a fuse');
    expect(new Set(manualOnly.data.data.map((e: { kind: string }) => e.kind))).toEqual(new Set(['MANUAL']));
    const automatic = await as.expert.query('systemChangelog.getList', list({ system_cuid: farm, kind: ['COMMAND', 'CONFIGURATION', 'MUTE'] }));
    expect(automatic.data.total).toBe(all.data.total - manualOnly.data.total);
    expect(automatic.data.data.every((e: { kind: string }) => e.kind !== 'MANUAL')).toBe(true);
    const command = automatic.data.data.find((e: { kind: string }) => e.kind === 'COMMAND');
    expect(command).toMatchObject({ ref: 'cmd-1', author_name: 'Demo Installer' });

    // Automatic entries: a clear refusal even for level 2 in the owner company (and for the author).
    for (const who of ['expert', 'installer']) {
      const edit = await as[who].mutate('systemChangelog.update', { id: command.id, data: { title: 'Nothing happened' } });
      expect(edit.status).toBe(403);
      expect(edit.error?.message).toBe('Entries written by the portal cannot be changed');
      const del = await as[who].mutate('systemChangelog.delete', { id: command.id });
      expect(del.status).toBe(403);
      expect(del.error?.message).toBe('Entries written by the portal cannot be changed');
    }
    expect((await as.expert.mutate('systemChangelog.deleteMany', { ids: [manual.data.log_cuid, command.id] })).status).toBe(403);
    expect(await q(`SELECT title FROM system_changelog WHERE log_cuid = ANY($1)`, [[command.id, manual.data.log_cuid]])).toHaveLength(2);
    // Manual entries as before: level 2 edits and deletes, Basic not.
    expect((await as.basic.mutate('systemChangelog.update', { id: manual.data.log_cuid, data: { title: 'x' } })).status).toBe(403);
    const edited = await as.expert.mutate('systemChangelog.update', { id: manual.data.log_cuid, data: { title: 'Replaced fuse F3' } });
    expect(edited.status).toBe(200);
    expect(edited.data.data).toMatchObject({ title: 'Replaced fuse F3', kind: 'MANUAL', ref: null });
    expect((await as.expert.mutate('systemChangelog.delete', { id: manual.data.log_cuid })).status).toBe(200);
  });
});
