import type { Scope } from '../../server/src/access/scope';
import { SystemMetadataRepository } from '../../server/src/systems/system-metadata.repository';
import { mediumWorld, type MediumWorld } from './world';
import { demoSystems } from './world-systems';

/** system-metadata.repository.ts on a real database: the template, a system's form, and who reaches it. */
describe('system metadata repository (database)', () => {
  let w: MediumWorld;
  let repo: SystemMetadataRepository;
  let s: Awaited<ReturnType<typeof demoSystems>>;
  const stranger: Scope = { user_cuid: 'stranger', superuser: false, companies: ['strangerco'], adminCompanies: [] };

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new SystemMetadataRepository(w.ds);
    s = await demoSystems(w);
  });
  afterAll(() => w?.db.close());

  it('the template: sections by index, active fieldsets by section_index, the same for every caller', async () => {
    const sections = await repo.sections(stranger);
    expect(sections.length).toBeGreaterThan(0);
    expect(sections.map((x) => x.index)).toEqual([...sections.map((x) => x.index)].sort((a, b) => a - b));
    await w.ds.query(
      `UPDATE system_metadata_template_fieldset SET active = false WHERE fieldset_id = (SELECT min(fieldset_id) FROM system_metadata_template_fieldset)`,
    );
    const fieldsets = await repo.activeFieldsets(await w.scope('basic@demo.local'));
    const [{ n }] = await w.ds.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM system_metadata_template_fieldset WHERE active`);
    expect(fieldsets).toHaveLength(n);
    expect(await repo.sectionExists(stranger, sections[0].section_id)).toBe(true);
    expect(await repo.sectionExists(stranger, 2_000_000_000)).toBe(false);
  });

  it('upsert and ofSystem: a form is written once per system and read back by who sees the system', async () => {
    const basic = await w.scope('basic@demo.local');
    expect(await repo.ofSystem(basic, s.farm)).toBeUndefined();
    const first = await repo.upsert(basic, w.ds, 'meta1', s.farm, { a: 1 });
    expect(first).toEqual({ metadata_cuid: 'meta1', system_cuid: s.farm, data: { a: 1 } });
    expect(await repo.upsert(basic, w.ds, 'meta2', s.farm, { a: 2 })).toEqual({ metadata_cuid: 'meta1', system_cuid: s.farm, data: { a: 2 } });
    expect(await repo.ofSystem(basic, s.farm)).toEqual({ metadata_cuid: 'meta1', data: { a: 2 } });
    // In one transaction of the caller's.
    await repo.transaction(basic, (tx) => repo.upsert(basic, tx, 'meta3', s.clinic, { shared: true }));
    expect(await repo.ofSystem(await w.scope('other@demo.local'), s.clinic)).toEqual({ metadata_cuid: 'meta3', data: { shared: true } });
  });

  it("another company's caller neither reads nor writes the demo company's form", async () => {
    for (const caller of [await w.scope('other@demo.local'), stranger]) {
      expect(await repo.ofSystem(caller, s.farm)).toBeUndefined();
      expect(await repo.upsert(caller, w.ds, 'meta9', s.farm, { evil: true })).toBeUndefined();
    }
    expect(await repo.ofSystem(await w.scope('basic@demo.local'), s.farm)).toEqual({ metadata_cuid: 'meta1', data: { a: 2 } });
  });
});
