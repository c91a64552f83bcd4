import { CatalogueTranslations1764400000000 } from '../../server/src/database/migrations/1764400000000-catalogue-translations';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';

/**
 * French beside English in the catalogues, the roles and the metadata template: every table with
 * a `translations` column takes `{ fr: { <text field>: text } }` on create and update (only its own
 * text fields, bounded), answers it on every read, and refuses anything else with a 400.
 */
describe('catalogue and template texts in French', () => {
  let t: TestApp;
  let superuser: HttpClient;
  let expert: HttpClient;
  let sectionId = 0;

  beforeAll(async () => {
    t = await startTestApp();
    superuser = new HttpClient(t.baseUrl);
    expect((await superuser.login('superuser@demo.local')).status).toBe(200);
    expert = new HttpClient(t.baseUrl);
    expect((await expert.login('expert@demo.local')).status).toBe(200);
    const section = await superuser.mutate('systemMetadataTemplateSection.create', { data: { title: 'Site', index: 90 } });
    expect(section.status).toBe(200);
    sectionId = section.data.data.section_id;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('gives the four roles their French name and description (role.all, role.getList)', async () => {
    const all = await expert.query('role.all', null);
    expect(all.status).toBe(200);
    const names = Object.fromEntries(
      (all.data as { level: number; translations: { fr?: { name?: string; description?: string } } }[]).map((r) => [r.level, r.translations.fr?.name]),
    );
    expect(names).toEqual({ 0: 'Superutilisateur', 1: 'Installateur système', 2: 'Expert', 3: 'Basique' });
    for (const r of all.data as { translations: { fr?: { description?: string } } }[]) expect(r.translations.fr?.description?.length).toBeGreaterThan(20);
    const list = await expert.query('role.getList', { pagination: { page: 1, perPage: 10 }, sort: { field: 'level', order: 'ASC' }, filter: {} });
    expect(list.data.data[0].translations.fr.name).toBe('Superutilisateur');
  });

  it('gives the demo units and parameters their French (the latest values carry it to the system page)', async () => {
    const [unit] = await t.db.dataSource.query(`SELECT translations FROM unit WHERE unit = 'kWh'`);
    expect(unit.translations).toEqual({ fr: { description: 'Kilowattheure' } });
    const [param] = await t.db.dataSource.query(`SELECT translations FROM log_parameter WHERE parameter_id = 'battery_soc'`);
    expect(param.translations).toEqual({ fr: { description: 'État de charge de la batterie' } });
    const [system] = await t.db.dataSource.query<{ system_cuid: string }[]>(
      `SELECT s.system_cuid FROM system s JOIN entity e ON e.system_cuid = s.system_cuid LIMIT 1`,
    );
    const latest = await expert.query('telemetry.latest', { system_cuid: system.system_cuid });
    expect(latest.status).toBe(200);
    const params = (latest.data.devices as { parameters: { parameter_id: string; translations: { fr?: { description?: string } } }[] }[]).flatMap(
      (d) => d.parameters,
    );
    expect(params.length).toBeGreaterThan(0);
    for (const p of params) expect(p.translations.fr?.description).toEqual(expect.any(String));
  });

  /** Each table: a create body, its text fields and their largest length. */
  const TABLES: { resource: string; create: () => Record<string, unknown>; fields: Record<string, number> }[] = [
    { resource: 'manufacturer', create: () => ({ name: 'Fabricant X' }), fields: { name: 200 } },
    {
      resource: 'entityType',
      create: () => ({ entitytype_id: 'tr-device', model: 'Meter', entity_type: 'Device' }),
      fields: { model: 200, description: 10_000 },
    },
    { resource: 'entityCategory', create: () => ({ name: 'Meters' }), fields: { name: 200, description: 10_000 } },
    { resource: 'unit', create: () => ({ unit: 'Hz', description: 'Hertz' }), fields: { description: 10_000 } },
    { resource: 'logParameter', create: () => ({ parameter_id: 'tr_frequency', type: 'FloatLogParameter' }), fields: { description: 10_000 } },
    { resource: 'systemMetadataTemplateSection', create: () => ({ title: 'Grid', index: 91 }), fields: { title: 200, description: 10_000 } },
    {
      resource: 'systemMetadataTemplateFieldset',
      create: () => ({ title: 'Meter', section_id: sectionId, data: { fields: [{ key: 'operator', label: 'Operator', type: 'text' }] } }),
      fields: { title: 200, description: 10_000, 'field.operator.label': 200, 'field.operator.help': 2_000 },
    },
  ];

  it.each(TABLES)('$resource: takes French on create and update, answers it on every read, refuses other fields', async ({ resource, create, fields }) => {
    const french = Object.fromEntries(Object.keys(fields).map((f) => [f, `Texte ${f}`]));
    const created = await superuser.mutate(`${resource}.create`, { data: { ...create(), translations: { fr: french } } });
    expect({ status: created.status, text: created.text.slice(0, 300) }).toEqual({ status: 200, text: expect.any(String) });
    const id = created.data.data.id;
    expect(created.data.data.translations).toEqual({ fr: french });

    // Readers get it (an Expert reads the catalogues), in getOne and getList.
    const one = await expert.query(`${resource}.getOne`, { id });
    expect(one.data.data.translations).toEqual({ fr: french });
    const list = await expert.query(`${resource}.getList`, { pagination: { page: 1, perPage: 500 }, sort: { field: 'id', order: 'ASC' }, filter: {} });
    if (list.status === 200) expect(list.data.data.find((r: { id: unknown }) => r.id === id)?.translations).toEqual({ fr: french });

    // An empty text is no translation; the rest stays.
    const [first, ...others] = Object.keys(fields);
    const updated = await superuser.mutate(`${resource}.update`, { id, data: { translations: { fr: { ...french, [first]: '  ' } } } });
    expect(updated.status).toBe(200);
    // (A language left with no text goes too.)
    expect(updated.data.data.translations).toEqual(others.length ? { fr: Object.fromEntries(others.map((f) => [f, french[f]])) } : {});

    // What forms send for untouched inputs: null texts, or no French at all.
    const untouched = await superuser.mutate(`${resource}.update`, { id, data: { translations: { fr: { [first]: null } } } });
    expect({ status: untouched.status, translations: untouched.data?.data.translations }).toEqual({ status: 200, translations: {} });
    expect((await superuser.mutate(`${resource}.update`, { id, data: { translations: null } })).data?.data.translations).toEqual({});

    // Refused: a field that is not a text of this table, another language, a too long text, a non-text.
    const maxed = Object.fromEntries(Object.entries(fields).map(([f, max]) => [f, 'é'.repeat(max)]));
    expect((await superuser.mutate(`${resource}.update`, { id, data: { translations: { fr: maxed } } })).status).toBe(200);
    for (const bad of [
      { fr: { password: 'x' } },
      { fr: { [first]: 'x'.repeat(fields[first] + 1) } },
      { de: { [first]: 'Text' } },
      { fr: { [first]: 42 } },
      { fr: 'texte' },
      ['fr'],
      { fr: { ['field.__proto__.label']: 'x' } },
    ]) {
      const res = await superuser.mutate(`${resource}.update`, { id, data: { translations: bad } });
      expect({ bad, status: res.status, sql: /select|insert|update |stack/i.test(res.text) }).toEqual({ bad, status: 400, sql: false });
    }
    const after = await expert.query(`${resource}.getOne`, { id });
    expect(after.data.data.translations).toEqual({ fr: maxed });

    // Nobody below a superuser writes it.
    expect((await expert.mutate(`${resource}.update`, { id, data: { translations: { fr: { [first]: 'Non' } } } })).status).toBe(403);
  });

  it('gives the metadata form its French (forSystem: sections, fieldsets and field labels)', async () => {
    const [system] = await t.db.dataSource.query<{ system_cuid: string }[]>(`SELECT system_cuid FROM system ORDER BY name LIMIT 1`);
    const form = await superuser.query('systemMetadata.forSystem', { system_cuid: system.system_cuid });
    expect(form.status).toBe(200);
    const template = form.data.template as { section_id: number; translations: object; fieldsets: { title: string; translations: object }[] }[];
    const ours = template.find((s) => s.section_id === sectionId);
    expect(ours?.translations).toEqual({});
    const meter = ours?.fieldsets.find((f) => f.title === 'Meter');
    expect(meter?.translations).toEqual({ fr: expect.objectContaining({ 'field.operator.label': expect.any(String) }) });
  });

  it('the migration adds the column to every table and gives roles seeded before it their French', async () => {
    const ds = t.db.dataSource;
    const tables = [
      'role',
      'unit',
      'log_parameter',
      'entity_type',
      'entity_category',
      'manufacturer',
      'system_metadata_template_section',
      'system_metadata_template_fieldset',
    ];
    const columns = await ds.query<{ table_name: string; is_nullable: string; column_default: string }[]>(
      `SELECT table_name, is_nullable, column_default FROM information_schema.columns WHERE column_name = 'translations' AND table_name = ANY($1::text[]) ORDER BY table_name`,
      [tables],
    );
    expect(columns.map((c) => c.table_name).sort()).toEqual([...tables].sort());
    for (const c of columns)
      expect({ t: c.table_name, nullable: c.is_nullable, def: c.column_default }).toEqual({ t: c.table_name, nullable: 'NO', def: "'{}'::jsonb" });

    // As on a database whose roles were seeded before: down, then up again.
    const runner = ds.createQueryRunner();
    try {
      const migration = new CatalogueTranslations1764400000000();
      await migration.down(runner);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const roles = await ds.query<{ level: number; translations: { fr: { name: string } } }[]>(`SELECT level, translations FROM role ORDER BY level`);
    expect(roles.map((r) => r.translations.fr.name)).toEqual(['Superutilisateur', 'Installateur système', 'Expert', 'Basique']);
  });
});
