import type { Scope } from '../../server/src/access/scope';
import { newCuid } from '../../server/src/common/ids';
import { objectKeyFor } from '../../server/src/files/file-storage';
import { type NewFile, SqlFilesRepository } from '../../server/src/files/files.repository';
import { DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { mediumWorld, type MediumWorld } from './world';

/** files.repository.ts on a real database: the rows, and who sees them. */
describe('files repository (database)', () => {
  let w: MediumWorld;
  let repo: SqlFilesRepository;
  let systems: Record<string, string>;
  const stranger: Scope = { user_cuid: 'stranger', superuser: false, companies: ['strangerco'], adminCompanies: [] };
  const ids: Record<string, string> = {};
  const LIST = { pagination: { page: 1, perPage: 100 }, sort: { field: 'fileName', order: 'ASC' as const }, filter: {} };

  const newFile = (fileName: string, company_cuid: string | null, extra: Partial<NewFile> = {}): NewFile => {
    const id = newCuid();
    return {
      id,
      objectKey: objectKeyFor(id),
      contentType: 'text/plain',
      rootDomainName: null,
      domainName: null,
      company_cuid,
      system_cuid: null,
      size: 5,
      fileName,
      ...extra,
    };
  };

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new SqlFilesRepository(w.ds);
    const rows = await w.ds.query<{ system_cuid: string; name: string }[]>(`SELECT system_cuid, name FROM system`);
    systems = Object.fromEntries(rows.map((r) => [r.name, r.system_cuid]));
    const expert = await w.scope('expert@demo.local');
    const other = await w.scope('other@demo.local');
    // demo.txt: the demo company's; workshop.txt: the demo company's on the workshop (shared with the other company);
    // farm.txt: the demo company's on the farm (not shared); clinic.txt: the other company's on the clinic (shared with demo).
    for (const [name, scope, file] of [
      ['demo', expert, newFile('demo.txt', w.demo)],
      ['workshop', expert, newFile('workshop.txt', w.demo, { system_cuid: systems[DEMO_SYSTEMS.workshop] })],
      ['farm', expert, newFile('farm.txt', w.demo, { system_cuid: systems[DEMO_SYSTEMS.farm], contentType: 'image/png' })],
      ['clinic', other, newFile('clinic.txt', w.other, { system_cuid: systems[DEMO_SYSTEMS.clinic] })],
      ['brand', await w.scope('superuser@demo.local'), newFile('logo.txt', null, { rootDomainName: 'localhost' })],
    ] as const) {
      const row = await repo.insert(scope, file);
      expect(row).toMatchObject({ id: file.id, uploaded_by_user_cuid: scope.user_cuid, created_at: expect.any(Date) });
      ids[name] = row.id;
    }
  });
  afterAll(() => w?.db.close());

  const names = (rows: { fileName: string | null }[]) => rows.map((r) => r.fileName);

  it("list: one's companies' files and files of systems shared with them; a superuser all", async () => {
    expect(names((await repo.list(await w.scope('basic@demo.local'), LIST)).data)).toEqual(['clinic.txt', 'demo.txt', 'farm.txt', 'workshop.txt']);
    expect(names((await repo.list(await w.scope('other@demo.local'), LIST)).data)).toEqual(['clinic.txt', 'workshop.txt']);
    expect((await repo.list(await w.scope('superuser@demo.local'), LIST)).total).toBe(5);
  });

  it('a caller of another company gets nothing', async () => {
    expect(await repo.list(stranger, LIST)).toEqual({ data: [], total: 0 });
    expect(await repo.visibleMany(stranger, Object.values(ids))).toEqual([]);
    expect(await repo.visibleMany(await w.scope('other@demo.local'), [ids.demo, ids.farm])).toEqual([]);
  });

  it('list: filters, search, the reference, paging and sorting', async () => {
    const basic = await w.scope('basic@demo.local');
    expect(names((await repo.list(basic, { ...LIST, filter: { q: 'PNG' } })).data)).toEqual(['farm.txt']);
    expect(names((await repo.list(basic, { ...LIST, filter: { company_cuid: w.other } })).data)).toEqual(['clinic.txt']);
    expect(names((await repo.list(basic, { ...LIST, filter: { system_cuid: null } })).data)).toEqual(['demo.txt']);
    expect(names((await repo.list(basic, { ...LIST, filter: { id: [ids.demo, ids.brand] } })).data)).toEqual(['demo.txt']);
    expect(names((await repo.list(basic, { ...LIST, reference: { target: 'system_cuid', id: systems[DEMO_SYSTEMS.workshop] } })).data)).toEqual([
      'workshop.txt',
    ]);
    const page = await repo.list(basic, { ...LIST, pagination: { page: 2, perPage: 3 }, sort: { field: 'fileName', order: 'DESC' } });
    expect(page).toEqual({ data: [expect.objectContaining({ fileName: 'clinic.txt' })], total: 4 });
  });

  it('byId, lookups, delete and the orphan queue', async () => {
    expect(await repo.byId(stranger, ids.brand)).toMatchObject({ rootDomainName: 'localhost', company_cuid: null });
    expect(await repo.domain(stranger, 'nothing.example')).toBeUndefined();
    expect(await repo.rootDomainExists(stranger, 'localhost')).toBe(true);
    expect(await repo.rootDomainExists(stranger, 'nothing.example')).toBe(false);
    expect(await repo.systemWithShares(stranger, systems[DEMO_SYSTEMS.workshop])).toEqual({
      company_cuid: w.demo,
      shares: [{ company_cuid: w.other, change: true }],
    });
    expect(await repo.companyExists(stranger, w.demo)).toBe(true);
    const root = await w.scope('superuser@demo.local');
    const objectKey = (await repo.byId(root, ids.farm))!.objectKey;
    await repo.transaction((rows) => rows.delete(root, [ids.farm]));
    expect(await repo.byId(root, ids.farm)).toBeUndefined();
    // The database queues the deleted row's object for the sweep.
    expect(await repo.orphanKeys(root, 10)).toEqual([objectKey]);
    await repo.forgetOrphans(root, [objectKey]);
    expect(await repo.orphanKeys(root, 10)).toEqual([]);
  });
});
