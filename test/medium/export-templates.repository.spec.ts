import type { Scope } from '../../server/src/access/scope';
import { systemJob } from '../../server/src/common/system-job';
import { ExportTemplatesRepository } from '../../server/src/exports/export-templates.repository';
import { mediumWorld, type MediumWorld } from './world';
import { demoSystems } from './world-systems';

/** export-templates.repository.ts (the reads of a run) on a real database: the rows, and who reaches them. */
describe('export templates repository (database)', () => {
  let w: MediumWorld;
  let repo: ExportTemplatesRepository;
  let s: Awaited<ReturnType<typeof demoSystems>>;
  const stranger: Scope = { user_cuid: 'stranger', superuser: false, companies: ['strangerco'], adminCompanies: [] };
  const job = systemJob('test-exports');

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new ExportTemplatesRepository(w.ds);
    s = await demoSystems(w);
    await w.ds.query(
      `INSERT INTO system_data_export_template (template_cuid, name, config, system_cuid, charged_company_cuid)
       VALUES ('tfarm-b', 'B farm', '{"columns":[]}', $1, NULL), ('tfarm-a', 'A farm', '{}', $1, $2), ('tclinic', 'Clinic', '{}', $3, NULL)`,
      [s.farm, w.other, s.clinic],
    );
  });
  afterAll(() => w?.db.close());

  it('visible and visibleSystem: a template of a system the caller sees, with the system and its shares', async () => {
    const basic = await w.scope('basic@demo.local');
    expect(await repo.visible(basic, 'tfarm-b')).toEqual({
      template_cuid: 'tfarm-b',
      name: 'B farm',
      system_cuid: s.farm,
      config: { columns: [] },
      system_name: 'Demo Farm Mini-grid',
      company_cuid: w.demo,
      timezone: expect.any(String),
      shares: [],
    });
    // The clinic is shared with the demo company (read-only).
    expect(await repo.visible(basic, 'tclinic')).toMatchObject({ company_cuid: w.other, shares: [{ company_cuid: w.demo, change: false }] });
    expect(await repo.visibleSystem(basic, s.farm)).toEqual({ company_cuid: w.demo, shares: [] });
  });

  it('ofSystem: by name, at most `limit`', async () => {
    const basic = await w.scope('basic@demo.local');
    expect((await repo.ofSystem(basic, s.farm, 10)).map((t) => t.template_cuid)).toEqual(['tfarm-a', 'tfarm-b']);
    expect((await repo.ofSystem(basic, s.farm, 1)).map((t) => t.template_cuid)).toEqual(['tfarm-a']);
  });

  it("another company's caller reaches none of the demo company's templates or systems", async () => {
    for (const caller of [await w.scope('other@demo.local'), stranger]) {
      expect(await repo.visible(caller, 'tfarm-a')).toBeUndefined();
      expect(await repo.visibleSystem(caller, s.farm)).toBeUndefined();
      expect(await repo.ofSystem(caller, s.farm, 10)).toEqual([]);
    }
  });

  it('forJob: any template, charged to the company that set its schedule, else the owner', async () => {
    expect(await repo.forJob(job, 'tfarm-a')).toMatchObject({ template_cuid: 'tfarm-a', charged_company_cuid: w.other });
    expect(await repo.forJob(job, 'tfarm-b')).toMatchObject({ charged_company_cuid: w.demo });
    expect(await repo.forJob(job, 'none')).toBeUndefined();
  });

  it('columnSources: the devices of that system only, one row per logged parameter with its unit', async () => {
    const rows = await repo.columnSources(job, s.farm, [s.battery, 'nothing']);
    expect(rows.find((r) => r.parameter_id === 'battery_soc')).toEqual({
      entity_cuid: s.battery,
      device: expect.any(String),
      parameter_id: 'battery_soc',
      description: expect.any(String),
      unit: '%',
    });
    expect(rows.every((r) => r.entity_cuid === s.battery)).toBe(true);
    expect(await repo.columnSources(job, s.clinic, [s.battery])).toEqual([]);
  });
});
