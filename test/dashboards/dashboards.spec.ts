import { DEMO_COMPANY_NAME, DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';

/**
 * Dashboards (issue 13 §2): owned by a company or a system and optionally made for a role; who sees
 * which (scoped in SQL: lists, single reads and `dashboard.mine`), the layout's field errors, and
 * the level-0 rule for writes.
 */
describe('dashboards: scope by owner and role level, layout schema, level 0 writes', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  let demo: string;
  let other: string;
  const system: Record<keyof typeof DEMO_SYSTEMS, string> = {} as never;
  const role: Record<number, string> = {};
  let farmDevice: string;
  let clinicDevice: string | undefined;
  const board: Record<string, string> = {};

  const list = { pagination: { page: 1, perPage: 100 }, sort: { field: 'name', order: 'ASC' }, filter: {} };
  const mine = async (who: string, input?: unknown) => {
    const answer = await as[who].query('dashboard.mine', input);
    expect(answer.status).toBe(200);
    return (answer.data as { name: string }[]).map((d) => d.name).sort();
  };
  const listed = async (who: string) => {
    const answer = await as[who].query('dashboard.getList', list);
    expect(answer.status).toBe(200);
    return (answer.data.data as { name: string }[]).map((d) => d.name).sort();
  };
  const create = async (data: Record<string, unknown>) => {
    const answer = await as.superuser.mutate('dashboard.create', { data });
    expect({ status: answer.status, text: answer.status === 200 ? '' : answer.text }).toEqual({ status: 200, text: '' });
    return answer.data.data.dashboard_cuid as string;
  };
  const widget = (id: string, type: string, settings: Record<string, unknown>, place = { x: 0, y: 0, w: 4, h: 3 }) => ({ id, type, ...place, settings });

  beforeAll(async () => {
    t = await startTestApp();
    const ds = t.db.dataSource;
    await addMember(ds, 'otherexpert@demo.local', OTHER_COMPANY_NAME, 2);
    [{ company_cuid: demo }] = await ds.query(`SELECT company_cuid FROM company WHERE name = $1`, [DEMO_COMPANY_NAME]);
    [{ company_cuid: other }] = await ds.query(`SELECT company_cuid FROM company WHERE name = $1`, [OTHER_COMPANY_NAME]);
    for (const [key, name] of Object.entries(DEMO_SYSTEMS)) {
      [{ system_cuid: system[key as keyof typeof DEMO_SYSTEMS] }] = await ds.query(`SELECT system_cuid FROM system WHERE name = $1`, [name]);
    }
    for (const r of await ds.query(`SELECT role_cuid, level FROM role`)) role[Number(r.level)] = r.role_cuid;
    [{ entity_cuid: farmDevice }] = await ds.query(`SELECT entity_cuid FROM entity WHERE system_cuid = $1 ORDER BY entity_cuid LIMIT 1`, [system.farm]);
    clinicDevice = (await ds.query(`SELECT entity_cuid FROM entity WHERE system_cuid = $1 LIMIT 1`, [system.clinic]))[0]?.entity_cuid;
    for (const who of ['superuser', 'installer', 'expert', 'basic', 'other', 'otherexpert']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
    board.demoAll = await create({ entityowner_cuid: demo, name: 'Demo all' });
    board.demoExpert = await create({ entityowner_cuid: demo, name: 'Demo experts', role_cuid: role[2] });
    board.demoInstaller = await create({ entityowner_cuid: demo, name: 'Demo installers', role_cuid: role[1] });
    board.farmBasic = await create({ entityowner_cuid: system.farm, name: 'Farm basic', role_cuid: role[3] });
    board.workshopBasic = await create({ entityowner_cuid: system.workshop, name: 'Workshop basic', role_cuid: role[3] });
    board.clinicExpert = await create({ entityowner_cuid: system.clinic, name: 'Clinic experts', role_cuid: role[2] });
    board.otherAll = await create({ entityowner_cuid: other, name: 'Other all' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('each member sees the dashboards of their companies and visible systems made for their level or above', async () => {
    const all = ['Clinic experts', 'Demo all', 'Demo experts', 'Demo installers', 'Farm basic', 'Other all', 'Workshop basic'];
    expect(await mine('superuser')).toEqual(all);
    expect(await mine('installer')).toEqual(['Clinic experts', 'Demo all', 'Demo experts', 'Demo installers', 'Farm basic', 'Workshop basic']);
    expect(await mine('expert')).toEqual(['Clinic experts', 'Demo all', 'Demo experts', 'Farm basic', 'Workshop basic']);
    expect(await mine('basic')).toEqual(['Demo all', 'Farm basic', 'Workshop basic']);
    // the other company: its own, the workshop shared with it; the clinic (its system) for its Experts only
    expect(await mine('other')).toEqual(['Other all', 'Workshop basic']);
    expect(await mine('otherexpert')).toEqual(['Clinic experts', 'Other all', 'Workshop basic']);
    // the react-admin list says the same
    expect(await listed('basic')).toEqual(await mine('basic'));
    expect(await listed('other')).toEqual(await mine('other'));
    const total = await as.basic.query('dashboard.getList', list);
    expect(total.data.total).toBe(3);
  });

  it('a dashboard the caller may not see answers exactly like a missing one, in every read', async () => {
    const missing = await as.basic.query('dashboard.getOne', { id: 'zzzzzzzzzzzzzzzzzzzzzzzz' });
    expect(missing.status).toBe(404);
    for (const id of [board.demoExpert, board.otherAll, board.clinicExpert]) {
      const answer = await as.basic.query('dashboard.getOne', { id });
      expect(answer.status).toBe(404);
      expect(answer.error).toEqual(missing.error);
    }
    expect((await as.other.query('dashboard.getOne', { id: board.farmBasic })).status).toBe(404);
    expect((await as.other.query('dashboard.getOne', { id: board.workshopBasic })).status).toBe(200);
    const many = await as.basic.query('dashboard.getMany', { ids: Object.values(board) });
    expect((many.data.data as { name: string }[]).map((d) => d.name).sort()).toEqual(['Demo all', 'Farm basic', 'Workshop basic']);
    const ref = await as.other.query('dashboard.getManyReference', { ...list, target: 'entityowner_cuid', id: demo });
    expect(ref.data.total).toBe(0);
  });

  it('dashboard.mine gives the owner (company or system) and filters one system', async () => {
    const answer = await as.basic.query('dashboard.mine');
    const byName = Object.fromEntries((answer.data as { name: string }[]).map((d) => [d.name, d]));
    expect(byName['Demo all']).toMatchObject({ owner_kind: 'company', owner_name: DEMO_COMPANY_NAME, role_cuid: null, role_level: null });
    expect(byName['Farm basic']).toMatchObject({ owner_kind: 'system', owner_name: DEMO_SYSTEMS.farm, entityowner_cuid: system.farm, role_level: 3 });
    expect(await mine('basic', { system_cuid: system.farm })).toEqual(['Farm basic']);
    expect(await mine('basic', { system_cuid: system.clinic })).toEqual([]);
    expect(await mine('expert', { system_cuid: system.clinic })).toEqual(['Clinic experts']);
    expect((await as.basic.query('dashboard.mine', { system_cuid: 'x'.repeat(40) })).status).toBe(400);
  });

  it('the layout is checked field by field; systems and devices it names must exist and be seen', async () => {
    const md = widget('a', 'markdown', { text: 'Hello' });
    const bad: [unknown, string][] = [
      [
        { widgets: [md, widget('b', 'timeseries', { series: [{ entity_cuid: farmDevice, parameter_id: 'pv_power' }] })] },
        'data.meta.widgets.1.settings.system_cuid',
      ],
      [{ widgets: [widget('a', 'markdown', { text: 'x'.repeat(10_001) })] }, 'data.meta.widgets.0.settings.text'],
      [{ widgets: [widget('a', 'markdown', { text: '' }, { x: 8, y: 0, w: 6, h: 2 })] }, 'data.meta.widgets.0.w'],
      [{ widgets: [widget('a', 'markdown', { text: '' }, { x: 0, y: 0, w: 4, h: 99 })] }, 'data.meta.widgets.0.h'],
      [{ widgets: [md, { ...md }] }, 'data.meta.widgets.1.id'],
      [{ widgets: [widget('a', 'kpi', { metric: 'parameter', system_cuid: system.farm })] }, 'data.meta.widgets.0.settings.entity_cuid'],
      [{ widgets: [widget('a', 'kpi', { metric: 'bogus' })] }, 'data.meta.widgets.0.settings.metric'],
      [{ widgets: [widget('a', 'energy', { granularity: 'year' })] }, 'data.meta.widgets.0.settings.granularity'],
      [
        {
          widgets: [
            widget('a', 'timeseries', {
              system_cuid: system.farm,
              series: Array.from({ length: 9 }, () => ({ entity_cuid: farmDevice, parameter_id: 'pv_power' })),
            }),
          ],
        },
        'data.meta.widgets.0.settings.series',
      ],
      [{ widgets: [widget('a', 'map', { extra: 1 })] }, 'data.meta.widgets.0.settings'],
      [{ range: { preset: 'custom' }, widgets: [] }, 'data.meta.range.from'],
      [{ range: { preset: 'someday' }, widgets: [] }, 'data.meta.range.preset'],
      [{ widgets: [], extra: true }, 'data.meta'],
    ];
    const before = await t.db.dataSource.query(`SELECT count(*)::int AS n FROM dashboard`);
    for (const [meta, path] of bad) {
      const answer = await as.superuser.mutate('dashboard.create', { data: { entityowner_cuid: demo, name: 'Bad', meta } });
      const paths = answer.error?.data.fieldErrors?.map((f: { path: string }) => f.path) ?? [];
      expect({ path, status: answer.status, found: paths.some((p: string) => p === path || p.startsWith(`${path}.`)) }).toEqual({
        path,
        status: 400,
        found: true,
      });
    }
    const unknownType = await as.superuser.mutate('dashboard.create', {
      data: { entityowner_cuid: demo, name: 'Bad', meta: { widgets: [widget('a', 'pie', {})] } },
    });
    expect(unknownType.status).toBe(400);
    expect(unknownType.error?.data.fieldErrors?.some((f: { path: string }) => f.path.startsWith('data.meta.widgets.0'))).toBe(true);
    // references: a missing system, a device of another system
    for (const [meta, path] of [
      [
        { widgets: [md, widget('b', 'latest', { system_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz', entity_cuid: farmDevice })] },
        'data.meta.widgets.1.settings.system_cuid',
      ],
      [{ widgets: [widget('a', 'latest', { system_cuid: system.workshop, entity_cuid: farmDevice })] }, 'data.meta.widgets.0.settings.entity_cuid'],
      [
        {
          widgets: [
            widget('a', 'timeseries', {
              system_cuid: system.farm,
              series: [
                { entity_cuid: farmDevice, parameter_id: 'pv_power' },
                { entity_cuid: 'nope', parameter_id: 'pv_power' },
              ],
            }),
          ],
        },
        'data.meta.widgets.0.settings.series.1.entity_cuid',
      ],
    ] as const) {
      const answer = await as.superuser.mutate('dashboard.create', { data: { entityowner_cuid: demo, name: 'Bad', meta } });
      expect({ status: answer.status, paths: answer.error?.data.fieldErrors?.map((f: { path: string }) => f.path) }).toEqual({ status: 404, paths: [path] });
    }
    expect((await as.superuser.mutate('dashboard.create', { data: { entityowner_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz', name: 'Bad' } })).status).toBe(404);
    expect(await t.db.dataSource.query(`SELECT count(*)::int AS n FROM dashboard`)).toEqual(before);

    // a full layout is stored as sent (defaults filled in)
    const meta = {
      range: { preset: 'this_month' },
      widgets: [
        widget('k', 'kpi', { metric: 'energy_today' }),
        widget('p', 'kpi', { metric: 'parameter', system_cuid: system.farm, entity_cuid: farmDevice, parameter_id: 'pv_power' }, { x: 4, y: 0, w: 4, h: 3 }),
        widget('t', 'timeseries', { system_cuid: system.farm, series: [{ entity_cuid: farmDevice, parameter_id: 'pv_power' }] }, { x: 0, y: 3, w: 12, h: 6 }),
        widget('e', 'energy', { system_cuid: system.farm, granularity: 'day' }, { x: 0, y: 9, w: 6, h: 5 }),
        widget('f', 'fleet_status', {}, { x: 6, y: 9, w: 6, h: 3 }),
        widget('l', 'latest', { system_cuid: system.farm, entity_cuid: farmDevice }, { x: 0, y: 14, w: 6, h: 4 }),
        widget('m', 'markdown', { text: '# Note' }, { x: 6, y: 14, w: 6, h: 4 }),
        { ...widget('a', 'alarms', {}, { x: 0, y: 18, w: 6, h: 4 }), title: 'Alarms' },
        widget('map', 'map', {}, { x: 6, y: 18, w: 6, h: 6 }),
      ],
    };
    const id = await create({ entityowner_cuid: demo, name: 'Full', meta });
    const [{ meta: stored }] = await t.db.dataSource.query(`SELECT meta FROM dashboard WHERE dashboard_cuid = $1`, [id]);
    expect(stored).toEqual(meta);
    const empty = await create({ entityowner_cuid: demo, name: 'Empty' });
    const [{ meta: defaults }] = await t.db.dataSource.query(`SELECT meta FROM dashboard WHERE dashboard_cuid = $1`, [empty]);
    expect(defaults).toEqual({ range: { preset: 'last_7d' }, widgets: [] });
    if (clinicDevice) expect(clinicDevice).not.toBe(farmDevice);
    await as.superuser.mutate('dashboard.deleteMany', { ids: [id, empty] });
  });

  it('create, edit and delete need level 0; refusals write nothing', async () => {
    const snapshot = () => t.db.dataSource.query(`SELECT * FROM dashboard ORDER BY dashboard_cuid`);
    const before = await snapshot();
    for (const who of ['installer', 'expert', 'basic', 'other']) {
      expect((await as[who].mutate('dashboard.create', { data: { entityowner_cuid: demo, name: 'Mine' } })).status).toBe(403);
    }
    // the installer sees the Demo experts board and still may not change it
    expect((await as.installer.mutate('dashboard.update', { id: board.demoExpert, data: { name: 'Mine' } })).status).toBe(403);
    expect((await as.expert.mutate('dashboard.delete', { id: board.demoExpert })).status).toBe(403);
    expect((await as.basic.mutate('dashboard.deleteMany', { ids: [board.demoAll] })).status).toBe(403);
    expect(await snapshot()).toEqual(before);
    // the superuser moves a board to a system and to a role, and back
    const moved = await as.superuser.mutate('dashboard.update', { id: board.demoAll, data: { entityowner_cuid: system.clinic, role_cuid: role[3] } });
    expect(moved.status).toBe(200);
    expect(await mine('basic')).toEqual(['Demo all', 'Farm basic', 'Workshop basic']); // the clinic is shared with the demo company
    expect(await mine('other')).toEqual(['Demo all', 'Other all', 'Workshop basic']);
    expect((await as.superuser.mutate('dashboard.update', { id: board.demoAll, data: { entityowner_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz' } })).status).toBe(404);
    expect((await as.superuser.mutate('dashboard.update', { id: board.demoAll, data: { entityowner_cuid: demo, role_cuid: null } })).status).toBe(200);
    expect(await mine('other')).toEqual(['Other all', 'Workshop basic']);
  });
});
