import { DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { DEFAULT_METADATA_TEMPLATE, seedMetadataTemplate } from '../../server/src/seed/metadata-template-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';

const list = (filter: Record<string, unknown> = {}) => ({ pagination: { page: 1, perPage: 100 }, filter });
interface Section {
  section_id: number;
  title: string;
  isPhaseSection: boolean;
  fieldsets: { fieldset_id: number; fields: { key: string; type: string }[] }[];
}

describe('system metadata: template and per-system form', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  const system: Record<string, string> = {};
  let template: Section[];
  /** section_id and fieldset_id of a section by title. */
  const ids = (title: string) => {
    const s = template.find((x) => x.title === title)!;
    return { s: String(s.section_id), f: String(s.fieldsets[0].fieldset_id) };
  };
  const stored = async (systemName: string) =>
    (await t.db.dataSource.query(`SELECT data FROM system_metadata WHERE system_cuid = $1`, [system[systemName]]))[0]?.data ?? null;

  beforeAll(async () => {
    t = await startTestApp();
    await addMember(t.db.dataSource, 'other-expert@demo.local', OTHER_COMPANY_NAME, 2);
    for (const who of ['superuser', 'installer', 'expert', 'basic', 'other', 'other-expert']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
    for (const s of await t.db.dataSource.query(`SELECT system_cuid, name FROM system`)) system[s.name] = s.system_cuid;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('forSystem: the seeded template, empty data, and whether the caller may change it', async () => {
    const basic = await as.basic.query('systemMetadata.forSystem', { system_cuid: system[DEMO_SYSTEMS.farm] });
    expect(basic.status).toBe(200);
    template = basic.data.template;
    expect(template.map((s) => s.title)).toEqual(DEFAULT_METADATA_TEMPLATE.map((s) => s.title));
    expect(template.find((s) => s.title === 'Grid phases')?.isPhaseSection).toBe(true);
    expect(template[0].fieldsets[0].fields.length).toBeGreaterThan(3);
    expect(basic.data).toMatchObject({ data: {}, metadata_cuid: null, canChange: false });
    expect((await as.expert.query('systemMetadata.forSystem', { system_cuid: system[DEMO_SYSTEMS.farm] })).data.canChange).toBe(true);
    // A read-only share: visible, not changeable; a share with change: changeable
    expect((await as.expert.query('systemMetadata.forSystem', { system_cuid: system[DEMO_SYSTEMS.clinic] })).data.canChange).toBe(false);
    expect((await as['other-expert'].query('systemMetadata.forSystem', { system_cuid: system[DEMO_SYSTEMS.workshop] })).data.canChange).toBe(true);
    expect((await as.other.query('systemMetadata.forSystem', { system_cuid: system[DEMO_SYSTEMS.farm] })).status).toBe(404);
    expect((await as.other.query('systemMetadata.forSystem', { system_cuid: '' })).status).toBe(400);
    // The seed step is idempotent
    expect(await seedMetadataTemplate(t.db.dataSource.manager)).toBe(false);
  });

  it('save: upserts valid data, phase sections per phase', async () => {
    const general = ids('General');
    const grid = ids('Grid phases');
    const data = {
      [general.s]: {
        [general.f]: { operator: 'Demo Solar', connections: 42, grid_connected: false, commissioning_date: '2025-03-01', system_type: 'Mini-grid' },
      },
      [grid.s]: { L1: { [grid.f]: { nominal_voltage: 230, feeder: 'North' } }, L2: { [grid.f]: { nominal_voltage: 231.5 } } },
    };
    const saved = await as.expert.mutate('systemMetadata.save', { system_cuid: system[DEMO_SYSTEMS.farm], data });
    expect(saved.status).toBe(200);
    expect(saved.data.data).toEqual(data);
    const again = await as.expert.mutate('systemMetadata.save', {
      system_cuid: system[DEMO_SYSTEMS.farm],
      data: { ...data, [general.s]: { [general.f]: { operator: 'Demo Solar Ltd' } } },
    });
    expect(again.data.metadata_cuid).toBe(saved.data.metadata_cuid);
    const form = await as.basic.query('systemMetadata.forSystem', { system_cuid: system[DEMO_SYSTEMS.farm] });
    expect(form.data).toMatchObject({ metadata_cuid: saved.data.metadata_cuid, data: { [general.s]: { [general.f]: { operator: 'Demo Solar Ltd' } } } });
    // A share with change lets the other company's expert save
    expect((await as['other-expert'].mutate('systemMetadata.save', { system_cuid: system[DEMO_SYSTEMS.workshop], data: {} })).status).toBe(200);
  });

  it('save refuses data that does not fit the template (400 naming the field) and callers without the right; nothing written', async () => {
    const before = await stored(DEMO_SYSTEMS.farm);
    const general = ids('General');
    const grid = ids('Grid phases');
    const save = (who: string, data: unknown, name: string = DEMO_SYSTEMS.farm) => as[who].mutate('systemMetadata.save', { system_cuid: system[name], data });
    const cases: [unknown, string][] = [
      [{ [general.s]: { [general.f]: { colour: 'red' } } }, `data.${general.s}.${general.f}.colour`],
      [{ [general.s]: { [general.f]: { connections: 'many' } } }, `data.${general.s}.${general.f}.connections`],
      [{ [general.s]: { [general.f]: { connections: 4.5 } } }, `data.${general.s}.${general.f}.connections`],
      [{ [general.s]: { [general.f]: { connections: -1 } } }, `data.${general.s}.${general.f}.connections`],
      [{ [general.s]: { [general.f]: { system_type: 'Spaceship' } } }, `data.${general.s}.${general.f}.system_type`],
      [{ [general.s]: { [general.f]: { commissioning_date: '2025-02-30' } } }, `data.${general.s}.${general.f}.commissioning_date`],
      [{ [general.s]: { [general.f]: { grid_connected: 'yes' } } }, `data.${general.s}.${general.f}.grid_connected`],
      [{ [general.s]: { '999999': {} } }, `data.${general.s}.999999`],
      [{ '999999': {} }, 'data.999999'],
      [{ [grid.s]: { L4: {} } }, `data.${grid.s}.L4`],
      [{ [grid.s]: { L1: { [grid.f]: { breaker_rating: '63' } } } }, `data.${grid.s}.L1.${grid.f}.breaker_rating`],
      [{ [general.s]: 'text' }, `data.${general.s}`],
    ];
    for (const [data, path] of cases) {
      const res = await save('expert', data);
      expect(res.status).toBe(400);
      expect(res.error?.data.fieldErrors?.map((e) => e.path)).toEqual([path]);
    }
    expect((await save('expert', 'not an object')).status).toBe(400);
    expect((await save('basic', {})).status).toBe(403);
    expect((await save('expert', {}, DEMO_SYSTEMS.clinic)).status).toBe(403);
    expect((await save('other-expert', {})).status).toBe(404);
    expect(await stored(DEMO_SYSTEMS.farm)).toEqual(before);
    expect(await stored(DEMO_SYSTEMS.clinic)).toBeNull();
  });

  it('generic calls: scoped to visible systems, validated on write', async () => {
    const mine = await as.basic.query('systemMetadata.getList', list());
    expect(mine.data.data.map((m: { system_name: string }) => m.system_name).sort()).toEqual([DEMO_SYSTEMS.farm, DEMO_SYSTEMS.workshop].sort());
    const theirs = await as.other.query('systemMetadata.getList', list());
    expect(theirs.data.data.map((m: { system_name: string }) => m.system_name)).toEqual([DEMO_SYSTEMS.workshop]);
    const farmRow = mine.data.data.find((m: { system_name: string }) => m.system_name === DEMO_SYSTEMS.farm);
    expect((await as.other.query('systemMetadata.getOne', { id: farmRow.id })).status).toBe(404);
    expect((await as['other-expert'].mutate('systemMetadata.update', { id: farmRow.id, data: { data: {} } })).status).toBe(404);
    const general = ids('General');
    const bad = await as.expert.mutate('systemMetadata.update', { id: farmRow.id, data: { data: { [general.s]: { [general.f]: { nope: 1 } } } } });
    expect(bad.status).toBe(400);
    expect(bad.error?.data.fieldErrors?.[0].path).toBe(`data.${general.s}.${general.f}.nope`);
    expect((await as.basic.mutate('systemMetadata.delete', { id: farmRow.id })).status).toBe(403);
    // One row per system: a second create is a conflict; create on a read-only share is refused
    expect((await as.expert.mutate('systemMetadata.create', { data: { system_cuid: system[DEMO_SYSTEMS.farm], data: {} } })).status).toBe(409);
    expect((await as.expert.mutate('systemMetadata.create', { data: { system_cuid: system[DEMO_SYSTEMS.clinic], data: {} } })).status).toBe(403);
    const ref = await as.expert.query('systemMetadata.getManyReference', { ...list(), target: 'system_cuid', id: system[DEMO_SYSTEMS.farm] });
    expect(ref.data.total).toBe(1);
    expect((await as.expert.mutate('systemMetadata.delete', { id: farmRow.id })).status).toBe(200);
    expect(await stored(DEMO_SYSTEMS.farm)).toBeNull();
  });

  it('template catalogue: everyone with metadata.view reads it, only level 0 changes it; fieldset data is checked', async () => {
    const sections = await as.basic.query('systemMetadataTemplateSection.getList', list());
    expect(sections.data.total).toBe(DEFAULT_METADATA_TEMPLATE.length);
    const general = ids('General');
    const fieldsets = await as.basic.query('systemMetadataTemplateFieldset.getManyReference', { ...list(), target: 'section_id', id: general.s });
    expect(fieldsets.data.data[0].data.fields.map((f: { key: string }) => f.key)).toContain('operator');
    expect((await as.installer.mutate('systemMetadataTemplateSection.create', { data: { title: 'Extra' } })).status).toBe(403);
    const input = {
      title: 'Contacts',
      section_id: Number(general.s),
      section_index: 1,
      data: { fields: [{ key: 'site_contact', label: 'Site contact', type: 'text', required: true }] },
    };
    expect((await as.installer.mutate('systemMetadataTemplateFieldset.create', { data: input })).status).toBe(403);
    const noOptions = await as.superuser.mutate('systemMetadataTemplateFieldset.create', {
      data: { ...input, data: { fields: [{ key: 'k', label: 'K', type: 'select' }] } },
    });
    expect(noOptions.status).toBe(400);
    expect(noOptions.error?.data.fieldErrors?.[0].path).toBe('data.data.fields.0.options');
    const twice = await as.superuser.mutate('systemMetadataTemplateFieldset.create', {
      data: { ...input, data: { fields: [input.data.fields[0], input.data.fields[0]] } },
    });
    expect(twice.error?.data.fieldErrors?.[0].path).toBe('data.data.fields.1.key');
    const badType = await as.superuser.mutate('systemMetadataTemplateFieldset.create', {
      data: { ...input, data: { fields: [{ key: '1x', label: 'x', type: 'color' }] } },
    });
    expect(badType.error?.data.fieldErrors?.map((e) => e.path).sort()).toEqual(['data.data.fields.0.key', 'data.data.fields.0.type']);
    const noSection = await as.superuser.mutate('systemMetadataTemplateFieldset.create', { data: { ...input, section_id: 999999 } });
    expect(noSection.status).toBe(404);
    const created = await as.superuser.mutate('systemMetadataTemplateFieldset.create', { data: input });
    expect(created.status).toBe(200);
    // The new required field now applies to saves
    const missing = await as.expert.mutate('systemMetadata.save', { system_cuid: system[DEMO_SYSTEMS.farm], data: {} });
    expect(missing.status).toBe(400);
    expect(missing.error?.data.fieldErrors?.[0]).toEqual({ path: `data.${general.s}.${created.data.data.id}.site_contact`, message: 'Required' });
    const filled = await as.expert.mutate('systemMetadata.save', {
      system_cuid: system[DEMO_SYSTEMS.farm],
      data: { [general.s]: { [created.data.data.id]: { site_contact: 'Amina, +254 700 000 000' } } },
    });
    expect(filled.status).toBe(200);
    // Deactivated fieldsets leave the form
    expect((await as.superuser.mutate('systemMetadataTemplateFieldset.update', { id: created.data.data.id, data: { active: false } })).status).toBe(200);
    expect((await as.expert.mutate('systemMetadata.save', { system_cuid: system[DEMO_SYSTEMS.farm], data: {} })).status).toBe(200);
  });
});
