import { DEMO_COMPANY_NAME, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';

type Rows = Record<string, unknown>[];
interface ImportAnswer {
  created: number;
  ids: string[];
  errors: { row: number; field?: string; message: string }[];
}

describe('CSV import: <resource>.importMany', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  const company: Record<string, string> = {};
  const count = async (sql: string, params: unknown[] = []) => Number((await t.db.dataSource.query(sql, params))[0].n);
  const importRows = async (who: string, resource: string, rows: Rows, mode: string) => as[who].mutate<ImportAnswer>(`${resource}.importMany`, { rows, mode });

  beforeAll(async () => {
    t = await startTestApp();
    await addMember(t.db.dataSource, 'other-installer@demo.local', OTHER_COMPANY_NAME, 1);
    for (const who of ['superuser', 'installer', 'expert', 'basic', 'other-installer']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
    for (const c of await t.db.dataSource.query(`SELECT company_cuid, name FROM company`)) company[c.name] = c.company_cuid;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a good file: every row created, values coerced from CSV text', async () => {
    const demo = company[DEMO_COMPANY_NAME];
    const rows = [
      { name: 'Import North', lat: '-1.2921', long: '36.8219', company_cuid: demo },
      { name: 'Import South', lat: '', long: ' ', company_cuid: demo, id: '' },
    ];
    const res = await importRows('installer', 'site', rows, 'all');
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ created: 2, errors: [] });
    expect(res.data!.ids).toHaveLength(2);
    const saved = await t.db.dataSource.query(`SELECT name, lat, long FROM site WHERE site_cuid = ANY($1) ORDER BY name`, [res.data!.ids]);
    expect(saved).toEqual([
      { name: 'Import North', lat: -1.2921, long: 36.8219 },
      { name: 'Import South', lat: null, long: null },
    ]);
    // Booleans, JSON columns and lists from text
    const types = await importRows(
      'superuser',
      'interfaceType',
      [
        { interfacetype_id: 'import-can', multidevice_support: 'yes' },
        { interfacetype_id: 'import-rs485', multidevice_support: '0' },
        { interfacetype_id: 'import-eth' },
      ],
      'all',
    );
    expect(types.data).toMatchObject({ created: 3, errors: [] });
    const flags = await t.db.dataSource.query(
      `SELECT interfacetype_id, multidevice_support FROM interface_type WHERE interfacetype_id LIKE 'import-%' ORDER BY 1`,
    );
    expect(flags).toEqual([
      { interfacetype_id: 'import-can', multidevice_support: true },
      { interfacetype_id: 'import-eth', multidevice_support: false },
      { interfacetype_id: 'import-rs485', multidevice_support: false },
    ]);
    const units = await importRows(
      'superuser',
      'unit',
      [
        { unit: 'kvarh', unit_variants: 'kVArh, kvar·h' },
        { unit: 'mbar', unit_variants: '["millibar"]' },
      ],
      'all',
    );
    expect(units.data).toMatchObject({ created: 2, errors: [] });
    const variants = await t.db.dataSource.query(`SELECT unit, unit_variants FROM unit WHERE unit IN ('kvarh', 'mbar') ORDER BY unit`);
    expect(variants).toEqual([
      { unit: 'kvarh', unit_variants: ['kVArh', 'kvar·h'] },
      { unit: 'mbar', unit_variants: ['millibar'] },
    ]);
  });

  it('bad rows: reported per row and field; validate writes nothing, all writes nothing, validOnly writes the good rows', async () => {
    await t.db.dataSource.query(`INSERT INTO entity_category (entitycategory_cuid, name) VALUES ('importcat0000000000000001', 'Import existing')`);
    const rows: Rows = [
      { name: 'Import good A', description: 'first' },
      { name: '' },
      { name: 'Import existing' },
      { name: 'Import good B', colour: 'red' },
      { name: 'Import good A' },
      { name: 'x'.repeat(300) },
      { name: 'Import good C' },
    ];
    const expected = [
      { row: 1, field: 'name', message: expect.any(String) },
      { row: 2, field: 'name', message: 'already exists' },
      { row: 3, field: 'colour', message: 'Unknown column' },
      { row: 4, field: 'name', message: 'already exists' },
      { row: 5, field: 'name', message: expect.any(String) },
    ];
    const before = await count(`SELECT count(*) AS n FROM entity_category`);

    const validate = await importRows('superuser', 'entityCategory', rows, 'validate');
    expect(validate.status).toBe(200);
    expect(validate.data).toEqual({ created: 0, ids: [], errors: expected });
    expect(await count(`SELECT count(*) AS n FROM entity_category`)).toBe(before);

    const all = await importRows('superuser', 'entityCategory', rows, 'all');
    expect(all.data).toEqual({ created: 0, ids: [], errors: expected });
    expect(await count(`SELECT count(*) AS n FROM entity_category`)).toBe(before);

    const validOnly = await importRows('superuser', 'entityCategory', rows, 'validOnly');
    expect(validOnly.data).toMatchObject({ created: 2, errors: expected });
    const names = await t.db.dataSource.query(`SELECT name, description FROM entity_category WHERE entitycategory_cuid = ANY($1) ORDER BY name`, [
      validOnly.data!.ids,
    ]);
    expect(names).toEqual([
      { name: 'Import good A', description: 'first' },
      { name: 'Import good C', description: null },
    ]);
    expect(await count(`SELECT count(*) AS n FROM entity_category`)).toBe(before + 2);

    // A clean file in "validate" mode: no errors and still nothing written
    const clean = await importRows('superuser', 'entityCategory', [{ name: 'Import never written' }], 'validate');
    expect(clean.data).toEqual({ created: 0, ids: [], errors: [] });
    expect(await count(`SELECT count(*) AS n FROM entity_category WHERE name = 'Import never written'`)).toBe(0);
  });

  it('wrong types are row errors naming the column, never a 500', async () => {
    const demo = company[DEMO_COMPANY_NAME];
    const rows: Rows = [
      { name: 'Typed 1', lat: 'north', company_cuid: demo },
      { name: 'Typed 2', lat: '100', company_cuid: demo },
      { name: { nested: true }, company_cuid: demo },
      { name: 'Typed 4', company_cuid: demo, toString: 'y' },
      { name: 'Typed 5' },
    ];
    const res = await importRows('installer', 'site', rows, 'validOnly');
    expect(res.status).toBe(200);
    expect(res.data!.created).toBe(0);
    const fields = res.data!.errors.map((e) => `${e.row}:${e.field}`);
    expect(fields).toEqual(expect.arrayContaining(['0:lat', '1:lat', '2:name', '4:company_cuid']));
    expect(res.data!.errors.find((e) => e.row === 0)?.message).toBe('Not a number');
    expect(res.data!.errors.filter((e) => e.row === 3)).toEqual([{ row: 3, field: 'toString', message: 'Unknown column' }]);
    // Prototype keys in a row (sent as raw JSON, superjson refuses to build them) are unknown columns
    const raw = await as.installer.request('POST', '/api/trpc/site.importMany', {
      body: `{"json":{"mode":"validate","rows":[{"name":"P","company_cuid":"${demo}","__proto__":"x","constructor":"y"}]}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.status).toBeLessThan(500);
    const json = await importRows(
      'superuser',
      'controller',
      [{ controller_id: 'imp-ctrl-1', controllertype_cuid: 'nope', company_cuid: demo, name: 'X', controller_info: '{not json' }],
      'validate',
    );
    expect(json.status).toBe(200);
    expect(json.data!.errors).toEqual([{ row: 0, field: 'controller_info', message: 'Not valid JSON' }]);
    // A missing controller type is reported on its column by the database (foreign key)
    const missingType = await importRows(
      'superuser',
      'controller',
      [{ controller_id: 'imp-ctrl-1', controllertype_cuid: 'nope', company_cuid: demo, name: 'X', controller_info: '{"a":1}' }],
      'validate',
    );
    expect(missingType.data!.errors).toEqual([{ row: 0, field: 'controllertype_cuid', message: 'not found' }]);
  });

  it('foreign company and site ids are NOT_FOUND row errors and nothing is written', async () => {
    const demo = company[DEMO_COMPANY_NAME];
    const other = company[OTHER_COMPANY_NAME];
    const [{ site_cuid: otherSite }] = await t.db.dataSource.query(
      `INSERT INTO site (site_cuid, name, company_cuid) VALUES ('importothersite0000000001', 'Other site', $1) RETURNING site_cuid`,
      [other],
    );
    const sitesBefore = await count(`SELECT count(*) AS n FROM site`);
    const sites = await importRows(
      'installer',
      'site',
      [
        { name: 'Stolen', company_cuid: other },
        { name: 'Fine', company_cuid: demo },
      ],
      'all',
    );
    expect(sites.data).toEqual({ created: 0, ids: [], errors: [{ row: 0, field: 'company_cuid', message: 'Company not found' }] });
    expect(await count(`SELECT count(*) AS n FROM site`)).toBe(sitesBefore);

    const systemsBefore = await count(`SELECT count(*) AS n FROM system`);
    const systems = await importRows(
      'installer',
      'system',
      [
        { name: 'Sys foreign site', company_cuid: demo, site_cuid: otherSite, timezone: 'Africa/Nairobi' },
        { name: 'Sys foreign company', company_cuid: other },
        { name: 'Sys missing company', company_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz' },
      ],
      'validOnly',
    );
    expect(systems.data).toEqual({
      created: 0,
      ids: [],
      errors: [
        { row: 0, field: 'site_cuid', message: 'Site not found' },
        { row: 1, field: 'company_cuid', message: 'Company not found' },
        { row: 2, field: 'company_cuid', message: 'Company not found' },
      ],
    });
    expect(await count(`SELECT count(*) AS n FROM system`)).toBe(systemsBefore);
    // The other company's installer cannot put rows into the demo company either
    const reverse = await importRows('other-installer', 'site', [{ name: 'Into demo', company_cuid: demo }], 'validOnly');
    expect(reverse.data!.errors).toEqual([{ row: 0, field: 'company_cuid', message: 'Company not found' }]);
    expect(await count(`SELECT count(*) AS n FROM site`)).toBe(sitesBefore);
  });

  it('permissions: a Basic user is refused; an Expert cannot import catalogue rows; nothing written', async () => {
    const before = await count(`SELECT count(*) AS n FROM site`);
    const basic = await importRows('basic', 'site', [{ name: 'Basic site', company_cuid: company[DEMO_COMPANY_NAME] }], 'all');
    expect(basic.status).toBe(403);
    expect(basic.error?.data.code).toBe('FORBIDDEN');
    const expert = await importRows('expert', 'manufacturer', [{ name: 'Expert maker' }], 'all');
    expect(expert.status).toBe(403);
    expect(await count(`SELECT count(*) AS n FROM site`)).toBe(before);
    expect(await count(`SELECT count(*) AS n FROM manufacturer WHERE name = 'Expert maker'`)).toBe(0);
    // Resources that are not importable have no importMany
    expect((await importRows('superuser', 'company', [{ name: 'X' }], 'all')).status).toBe(404);
  });

  it('bad input: no rows, too many rows, an unknown mode → 400 with field errors', async () => {
    const empty = await importRows('superuser', 'unit', [], 'all');
    expect(empty.status).toBe(400);
    expect(empty.error?.data.fieldErrors?.[0].path).toBe('rows');
    const many = await importRows(
      'superuser',
      'unit',
      Array.from({ length: 1001 }, (_, i) => ({ unit: `u${i}` })),
      'all',
    );
    expect(many.status).toBe(400);
    const mode = await importRows('superuser', 'unit', [{ unit: 'x' }], 'some');
    expect(mode.status).toBe(400);
    expect(mode.error?.data.fieldErrors?.[0].path).toBe('mode');
    const notObjects = await as.superuser.mutate('unit.importMany', { rows: ['a,b'], mode: 'all' });
    expect(notObjects.status).toBe(400);
  });
});
