import { DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';

const list = (filter: Record<string, unknown> = {}) => ({ pagination: { page: 1, perPage: 100 }, filter });
type Named = { id: string; name: string };

describe('data processors (non-device entities) and the changelog back office', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  const system: Record<string, string> = {};
  const processor: Record<string, string> = {};
  const config = async (entity_cuid: string) => (await t.db.dataSource.query(`SELECT config FROM entity WHERE entity_cuid = $1`, [entity_cuid]))[0]?.config;

  beforeAll(async () => {
    t = await startTestApp();
    await addMember(t.db.dataSource, 'other-installer@demo.local', OTHER_COMPANY_NAME, 1);
    await addMember(t.db.dataSource, 'other-expert@demo.local', OTHER_COMPANY_NAME, 2);
    for (const who of ['superuser', 'installer', 'expert', 'basic', 'other', 'other-installer', 'other-expert']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
    for (const s of await t.db.dataSource.query(`SELECT system_cuid, name FROM system`)) system[s.name] = s.system_cuid;
    await t.db.dataSource.query(
      `INSERT INTO entity_type (entitytype_id, model, entity_type) VALUES ('calc-energy', 'Energy balance', 'CalculatedValue'), ('sm-genset', 'Genset start logic', 'StateMachine')`,
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('dataProcessor.create needs level 0 and a processor type; devices and processors stay apart', async () => {
    const devicesBefore = (await as.superuser.query('entity.getList', list())).data.total;
    const input = { name: 'Genset logic', entitytype_id: 'sm-genset', system_cuid: system[DEMO_SYSTEMS.farm], config: { start_soc: 30 } };
    expect((await as.installer.mutate('dataProcessor.create', { data: input })).status).toBe(403);
    const wrongKind = await as.superuser.mutate('dataProcessor.create', { data: { ...input, entitytype_id: 'victron-multiplus-ii' } });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.error?.data.fieldErrors?.[0].path).toBe('entitytype_id');
    const missingType = await as.superuser.mutate('dataProcessor.create', { data: { ...input, entitytype_id: 'no-such-type' } });
    expect(missingType.status).toBe(400);
    const asDevice = await as.installer.mutate('entity.create', { data: { ...input, name: 'Sneaky' } });
    expect(asDevice.status).toBe(400);
    expect(asDevice.error?.data.fieldErrors?.[0].path).toBe('entitytype_id');
    expect(await t.db.dataSource.query(`SELECT count(*)::int AS n FROM entity WHERE entitytype_id IN ('sm-genset', 'calc-energy')`)).toEqual([{ n: 0 }]);

    for (const [name, type, sys] of [
      ['farm-sm', 'sm-genset', DEMO_SYSTEMS.farm],
      ['farm-calc', 'calc-energy', DEMO_SYSTEMS.farm],
      ['workshop-sm', 'sm-genset', DEMO_SYSTEMS.workshop],
      ['clinic-sm', 'sm-genset', DEMO_SYSTEMS.clinic],
    ] as const) {
      const res = await as.superuser.mutate('dataProcessor.create', { data: { ...input, name, entitytype_id: type, system_cuid: system[sys] } });
      expect(res.status).toBe(200);
      processor[name] = res.data.data.id;
    }
    const processors = await as.expert.query('dataProcessor.getList', list());
    expect(processors.data.data.map((p: Named) => p.name).sort()).toEqual(['clinic-sm', 'farm-calc', 'farm-sm', 'workshop-sm']);
    expect(processors.data.total).toBe(4);
    const devices = await as.superuser.query('entity.getList', list());
    expect(devices.data.total).toBe(devicesBefore);
    expect(devices.data.data.some((d: Named) => d.name.endsWith('-sm'))).toBe(false);
    expect((await as.expert.query('entity.getOne', { id: processor['farm-sm'] })).status).toBe(404);
    expect((await as.expert.query('dataProcessor.getOne', { id: devices.data.data[0].id })).status).toBe(404);
    // Another company sees only the processors of systems it sees
    const other = await as['other-expert'].query('dataProcessor.getList', list());
    expect(other.data.data.map((p: Named) => p.name).sort()).toEqual(['clinic-sm', 'workshop-sm']);
    expect((await as['other-expert'].query('dataProcessor.getOne', { id: processor['farm-sm'] })).status).toBe(404);
    expect((await as.basic.query('dataProcessor.getList', list())).status).toBe(403);
    // Edit and delete need level 0; a processor cannot become a device
    expect((await as.installer.mutate('dataProcessor.update', { id: processor['farm-sm'], data: { name: 'x' } })).status).toBe(403);
    const toDevice = await as.superuser.mutate('dataProcessor.update', { id: processor['farm-sm'], data: { entitytype_id: 'victron-multiplus-ii' } });
    expect(toDevice.status).toBe(400);
    expect((await as.installer.mutate('dataProcessor.delete', { id: processor['farm-sm'] })).status).toBe(403);
  });

  it('dataProcessor.configure: level 1 for most kinds, 0 for calculated values, and a write right on the system', async () => {
    const ok = await as.installer.mutate('dataProcessor.configure', { id: processor['farm-sm'], config: { start_soc: 25 } });
    expect(ok.status).toBe(200);
    expect(ok.data.data.config).toEqual({ start_soc: 25 });
    // Refusals change nothing
    expect((await as.installer.mutate('dataProcessor.configure', { id: processor['farm-calc'], config: { x: 1 } })).status).toBe(403);
    expect((await as.expert.mutate('dataProcessor.configure', { id: processor['farm-sm'], config: { x: 1 } })).status).toBe(403);
    expect((await as.installer.mutate('dataProcessor.configure', { id: processor['clinic-sm'], config: { x: 1 } })).status).toBe(403);
    expect((await as['other-installer'].mutate('dataProcessor.configure', { id: processor['farm-sm'], config: { x: 1 } })).status).toBe(404);
    const bad = await as.installer.mutate('dataProcessor.configure', { id: processor['farm-sm'], config: [1, 2] });
    expect(bad.status).toBe(400);
    expect(bad.error?.data.fieldErrors?.[0].path).toBe('config');
    expect(await config(processor['farm-sm'])).toEqual({ start_soc: 25 });
    expect(await config(processor['farm-calc'])).toEqual({ start_soc: 30 });
    expect(await config(processor['clinic-sm'])).toEqual({ start_soc: 30 });
    // A share with change lets the other company's installer configure; the superuser configures calculated values
    expect((await as['other-installer'].mutate('dataProcessor.configure', { id: processor['workshop-sm'], config: { y: 2 } })).status).toBe(200);
    expect((await as.superuser.mutate('dataProcessor.configure', { id: processor['farm-calc'], config: { formula: 'pv - load' } })).status).toBe(200);
    expect(await config(processor['farm-calc'])).toEqual({ formula: 'pv - load' });
    // Devices are not configured through this call
    const [{ entity_cuid: device }] = await t.db.dataSource.query(
      `SELECT e.entity_cuid FROM entity e JOIN entity_type et USING (entitytype_id) WHERE et.entity_type = 'Device' LIMIT 1`,
    );
    expect((await as.installer.mutate('dataProcessor.configure', { id: device, config: {} })).status).toBe(404);
    expect((await as.superuser.mutate('dataProcessor.delete', { id: processor['clinic-sm'] })).status).toBe(200);
  });

  it('systemChangelog: listed per visible system newest first with the author, edited and deleted at level 2', async () => {
    const farm = system[DEMO_SYSTEMS.farm];
    const workshop = system[DEMO_SYSTEMS.workshop];
    await t.db.dataSource.query(`DELETE FROM system_changelog`); // the demo's own entries
    const first = await as.expert.mutate('systemChangelog.create', { system_cuid: farm, title: 'Replaced fuse', message: 'F2 on the DC side' });
    expect(first.status).toBe(200);
    await new Promise((r) => setTimeout(r, 20));
    const second = await as.installer.mutate('systemChangelog.create', { system_cuid: farm, title: 'Firmware update' });
    const shared = await as.expert.mutate('systemChangelog.create', { system_cuid: workshop, title: 'Cleaned panels' });
    const entries = await as.basic.query('systemChangelog.getManyReference', { ...list(), target: 'system_cuid', id: farm });
    expect(entries.status).toBe(200);
    expect(entries.data.data.map((e: { title: string }) => e.title)).toEqual(['Firmware update', 'Replaced fuse']);
    expect(entries.data.data[1]).toMatchObject({ author_name: 'Demo Expert', message: 'F2 on the DC side', system_cuid: farm });
    expect(entries.data.data[0].timestamp).toBeInstanceOf(Date);
    const all = await as.basic.query('systemChangelog.getList', list({ q: 'fuse' }));
    expect(all.data.total).toBe(1);
    // Another company: nothing of the farm, but the shared workshop's entries
    expect((await as.other.query('systemChangelog.getList', list({ system_cuid: farm }))).data.total).toBe(0);
    expect((await as.other.query('systemChangelog.getOne', { id: first.data.log_cuid })).status).toBe(404);
    expect((await as.other.query('systemChangelog.getList', list())).data.data.map((e: { title: string }) => e.title)).toEqual(['Cleaned panels']);

    // Edit: level 2 on a visible system; bad input is a 400 naming the field
    expect((await as.basic.mutate('systemChangelog.update', { id: first.data.log_cuid, data: { title: 'x' } })).status).toBe(403);
    expect((await as['other-expert'].mutate('systemChangelog.update', { id: first.data.log_cuid, data: { title: 'x' } })).status).toBe(404);
    const empty = await as.expert.mutate('systemChangelog.update', { id: first.data.log_cuid, data: { title: '  ' } });
    expect(empty.status).toBe(400);
    expect(empty.error?.data.fieldErrors?.[0].path).toBe('data.title');
    const edited = await as.expert.mutate('systemChangelog.update', {
      id: first.data.log_cuid,
      data: { ...entries.data.data[1], title: 'Replaced fuse F2', user_cuid: 'forged', system_cuid: workshop },
    });
    expect(edited.status).toBe(200);
    expect(edited.data.data).toMatchObject({ title: 'Replaced fuse F2', system_cuid: farm, author_name: 'Demo Expert' });
    // through a share with change: one's own entries only (not the owner's)
    expect((await as['other-expert'].mutate('systemChangelog.update', { id: shared.data.log_cuid, data: { message: 'and inverters' } })).status).toBe(403);
    const theirs = await as['other-expert'].mutate('systemChangelog.create', { system_cuid: workshop, title: 'Checked wiring' });
    expect((await as['other-expert'].mutate('systemChangelog.update', { id: theirs.data.log_cuid, data: { message: 'all good' } })).status).toBe(200);
    const access = await as.basic.query('systemChangelog.access', { ids: [first.data.log_cuid] });
    expect(access.data.data).toEqual({ [first.data.log_cuid]: { edit: false, delete: false } });

    // Delete: all or nothing
    const count = async () => (await t.db.dataSource.query(`SELECT count(*)::int AS n FROM system_changelog`))[0].n;
    const before = await count();
    expect((await as.basic.mutate('systemChangelog.delete', { id: second.data.log_cuid })).status).toBe(403);
    expect((await as['other-expert'].mutate('systemChangelog.deleteMany', { ids: [theirs.data.log_cuid, second.data.log_cuid] })).status).toBe(404);
    expect(await count()).toBe(before);
    expect((await as.expert.mutate('systemChangelog.deleteMany', { ids: [first.data.log_cuid, second.data.log_cuid] })).status).toBe(200);
    expect(await count()).toBe(before - 2);
  });

  it("systemChangelog through a read-only share: the receiver neither rewrites nor deletes the owner's entries, nor its own; the owner keeps control", async () => {
    const clinic = system[DEMO_SYSTEMS.clinic]; // the other company's, shared read-only with the demo company
    const owners = await as['other-expert'].mutate('systemChangelog.create', { system_cuid: clinic, title: 'Owner entry', message: 'original' });
    expect(owners.status).toBe(200);
    const receivers = await as.expert.mutate('systemChangelog.create', { system_cuid: clinic, title: 'Receiver entry' });
    expect(receivers.status).toBe(200);
    const row = async (id: string) => (await t.db.dataSource.query(`SELECT title, message FROM system_changelog WHERE log_cuid = $1`, [id]))[0];
    for (const who of ['expert', 'installer', 'superuser'] as const) {
      if (who === 'superuser') continue;
      for (const id of [owners.data.log_cuid, receivers.data.log_cuid]) {
        expect((await as[who].mutate('systemChangelog.update', { id, data: { message: 'rewritten' } })).status).toBe(403);
        expect((await as[who].mutate('systemChangelog.delete', { id })).status).toBe(403);
        expect((await as[who].mutate('systemChangelog.deleteMany', { ids: [id] })).status).toBe(403);
      }
      const access = await as[who].query('systemChangelog.access', { ids: [owners.data.log_cuid] });
      expect(access.data.data).toEqual({ [owners.data.log_cuid]: { edit: false, delete: false } });
    }
    expect(await row(owners.data.log_cuid)).toEqual({ title: 'Owner entry', message: 'original' });
    expect(await row(receivers.data.log_cuid)).toEqual({ title: 'Receiver entry', message: null });
    // level 2 in the owner company edits and deletes any entry of its system
    expect((await as['other-expert'].mutate('systemChangelog.update', { id: receivers.data.log_cuid, data: { message: 'noted' } })).status).toBe(200);
    expect((await as['other-expert'].mutate('systemChangelog.delete', { id: receivers.data.log_cuid })).status).toBe(200);
  });
});
