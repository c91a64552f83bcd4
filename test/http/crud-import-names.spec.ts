import { RESOURCE_ACCESS, type CsvName } from '../../shared/access/resources';
import { DEMO_COMPANY_NAME, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';
import { textOf } from '../../shared/common/text';

type Rows = Record<string, unknown>[];
interface ImportAnswer {
  created: number;
  ids: string[];
  errors: { row: number; field?: string; message: string }[];
}

/** Every importable resource's reference columns that take a name instead of an id (the class). */
const NAMED: [string, string, CsvName][] = Object.entries(RESOURCE_ACCESS).flatMap(([resource, entry]) => {
  const csv = (entry as { csv?: { names?: Record<string, CsvName>; fields: readonly string[] } }).csv;
  return Object.entries(csv?.names ?? {}).map(([column, name]) => [resource, column, name] as [string, string, CsvName]);
});

describe('CSV import: reference columns given by name', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  const company: Record<string, string> = {};
  const importRows = async (who: string, resource: string, rows: Rows, mode: string) =>
    (await as[who].mutate<ImportAnswer>(`${resource}.importMany`, { rows, mode })).data!;

  beforeAll(async () => {
    t = await startTestApp();
    await addMember(t.db.dataSource, 'other-installer@demo.local', OTHER_COMPANY_NAME, 1);
    for (const who of ['superuser', 'installer', 'other-installer']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
    as.superuserFr = new HttpClient(t.baseUrl, { 'accept-language': 'fr' });
    expect((await as.superuserFr.login('superuser@demo.local')).status).toBe(200);
    for (const c of await t.db.dataSource.query(`SELECT company_cuid, name FROM company`)) company[c.name] = c.company_cuid;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every reference column (…_cuid) of every importable resource takes a name', () => {
    const missing: string[] = [];
    for (const [resource, entry] of Object.entries(RESOURCE_ACCESS)) {
      const csv = (entry as { csv?: { names?: Record<string, CsvName>; fields: readonly string[] } }).csv;
      for (const f of csv?.fields ?? []) if (f.endsWith('_cuid') && !csv?.names?.[f]) missing.push(`${resource}.${f}`);
    }
    expect(missing).toEqual([]);
    expect(NAMED.length).toBeGreaterThanOrEqual(10);
  });

  it.each(NAMED)(
    '%s.%s: a visible name stands for the id; an unknown one is an error on its row and column, in the caller language',
    async (resource, column, name) => {
      const list = await as.superuser.query<{ data: Record<string, unknown>[] }>(`${name.resource}.getList`, {
        pagination: { page: 1, perPage: 50 },
        sort: { field: 'id', order: 'ASC' },
        filter: {},
      });
      const records = list.data!.data;
      // A record whose name no other record has (names are compared without case and outer spaces).
      const key = (r: Record<string, unknown>) =>
        textOf(r[name.match] ?? '')
          .trim()
          .toLowerCase();
      const unique = records.find((r) => key(r) && records.filter((o) => key(o) === key(r)).length === 1);
      expect(unique).toBeDefined();
      const spelled = `  ${String(unique![name.match]).toUpperCase()} `;
      const good = await importRows('superuser', resource, [{ [name.column]: spelled }], 'validate');
      // The name resolved: nothing is said about the name column, nor is the id column missing.
      expect(good.errors.filter((e) => e.field === name.column || e.field === column)).toEqual([]);

      const bad = await importRows('superuser', resource, [{}, { [name.column]: 'No such name zq' }], 'validate');
      expect(bad.errors.filter((e) => e.field === name.column)).toEqual([
        { row: 1, field: name.column, message: expect.stringMatching(/^.+ "No such name zq" not found among those you can see$/) },
      ]);
      const fr = (await as.superuserFr.mutate<ImportAnswer>(`${resource}.importMany`, { rows: [{ [name.column]: 'No such name zq' }], mode: 'validate' }))
        .data!;
      expect(fr.errors.filter((e) => e.field === name.column)).toEqual([
        { row: 0, field: name.column, message: expect.stringMatching(/^.+ « No such name zq » introuvable parmi ce que vous pouvez voir$/) },
      ]);

      // An id and a name that name different records: refused, never a silent pick of one.
      const other = records.find((r) => r.id !== unique!.id);
      if (other) {
        const both = await importRows('superuser', resource, [{ [column]: String(other.id), [name.column]: String(unique![name.match]) }], 'validate');
        expect(both.errors.filter((e) => e.field === name.column)).toEqual([
          { row: 0, field: name.column, message: `${column} and ${name.column} name different records` },
        ]);
      }
    },
  );

  it('a real import by names: sites by company name, systems by company and site name, linked as named', async () => {
    const sites = await importRows('installer', 'site', [{ name: 'Named Depot', lat: '1', long: '2', company_name: DEMO_COMPANY_NAME }], 'all');
    expect(sites.errors).toEqual([]);
    expect(sites.created).toBe(1);
    const [site] = await t.db.dataSource.query(`SELECT site_cuid, company_cuid FROM site WHERE site_cuid = $1`, [sites.ids[0]]);
    expect(site.company_cuid).toBe(company[DEMO_COMPANY_NAME]);
    const systems = await importRows(
      'installer',
      'system',
      [{ name: 'Named Plant', timezone: 'Africa/Nairobi', company_name: DEMO_COMPANY_NAME.toLowerCase(), site_name: 'named depot' }],
      'all',
    );
    expect(systems.errors).toEqual([]);
    const [system] = await t.db.dataSource.query(`SELECT company_cuid, site_cuid FROM system WHERE system_cuid = $1`, [systems.ids[0]]);
    expect(system).toEqual({ company_cuid: company[DEMO_COMPANY_NAME], site_cuid: site.site_cuid });
  });

  it("a name is looked up only among what the caller sees: another company's name is unknown, exactly like a made-up one", async () => {
    const foreign = await importRows('installer', 'site', [{ name: 'X', company_name: OTHER_COMPANY_NAME }], 'all');
    const madeUp = await importRows('installer', 'site', [{ name: 'X', company_name: 'Made Up Energy' }], 'all');
    expect(foreign.created).toBe(0);
    expect(foreign.errors).toEqual([{ row: 0, field: 'company_name', message: `Company "${OTHER_COMPANY_NAME}" not found among those you can see` }]);
    expect(madeUp.errors).toEqual([{ row: 0, field: 'company_name', message: 'Company "Made Up Energy" not found among those you can see' }]);
    // The other company's installer finds it.
    const theirs = await importRows('other-installer', 'site', [{ name: 'Their depot', company_name: OTHER_COMPANY_NAME }], 'validate');
    expect(theirs.errors).toEqual([]);
  });

  it('an ambiguous name is an error on its row, never a guess', async () => {
    const twins = await importRows(
      'installer',
      'site',
      [
        { name: 'Twin Yard', company_name: DEMO_COMPANY_NAME },
        { name: 'twin yard ', company_name: DEMO_COMPANY_NAME },
      ],
      'all',
    );
    expect(twins.created).toBe(2);
    const res = await importRows(
      'installer',
      'system',
      [
        { name: 'Ok', timezone: 'Africa/Nairobi', company_name: DEMO_COMPANY_NAME },
        { name: 'Amb', timezone: 'Africa/Nairobi', company_name: DEMO_COMPANY_NAME, site_name: 'Twin Yard' },
      ],
      'all',
    );
    expect(res.created).toBe(0);
    expect(res.errors).toEqual([{ row: 1, field: 'site_name', message: 'Several records of Site are named "Twin Yard"; give the id in site_cuid instead' }]);
  });
});
