import { actor, codeOf } from '../../../test/factories/rules';
import type { CrudService } from '../crud/crud.service';
import type { Caller } from '../tenancy/visibility';
import type { SystemAccessRepository, VisibleSystem } from './system-access.repository';
import { SystemAccessService } from './system-access.service';
import type { SystemMetadataRepository, SystemMetadataRow, TemplateFieldsetRow, TemplateSectionRow } from './system-metadata.repository';
import { SystemMetadataService } from './system-metadata.service';

/** The rules of SystemMetadataService over in-memory stand-ins of its repositories (no database). */

const SYSTEM: VisibleSystem = { system_cuid: 'sys1', company_cuid: 'A', name: 'Farm', timezone: 'UTC', shares: [] };
const sees = (c: Caller) => ('memberships' in c ? c.memberships.some((m) => m.company_cuid === 'A') : c.companies.includes('A'));

function world() {
  const sections: TemplateSectionRow[] = [
    { section_id: 1, title: 'Site', description: null, isPhaseSection: false, index: 0, translations: {} },
    { section_id: 2, title: 'Empty', description: null, isPhaseSection: false, index: 1, translations: {} },
  ];
  const fieldsets: TemplateFieldsetRow[] = [
    {
      fieldset_id: 10,
      title: 'Roof',
      description: null,
      section_index: 0,
      section_id: 1,
      data: { fields: [{ key: 'pitch', label: 'Pitch', type: 'number' }] },
      translations: {},
    },
    { fieldset_id: 11, title: 'Broken', description: null, section_index: 1, section_id: 1, data: { fields: 'not a list' }, translations: null as never },
  ];
  const forms = new Map<string, SystemMetadataRow>();
  let forgotten = 0;
  const repo = {
    transaction: async <T>(_c: Caller, work: (tx: never) => Promise<T>) => work(undefined as never),
    sections: async () => sections,
    activeFieldsets: async () => fieldsets,
    sectionExists: async (_c: Caller, id: unknown) => sections.some((s) => s.section_id === id),
    ofSystem: async (c: Caller, id: string) => (sees(c) ? forms.get(id) : undefined),
    upsert: async (c: Caller, _tx: unknown, metadata_cuid: string, system_cuid: string, data: Record<string, unknown>) => {
      if (!sees(c) || system_cuid !== SYSTEM.system_cuid) return undefined;
      const row = { metadata_cuid: forms.get(system_cuid)?.metadata_cuid ?? metadata_cuid, system_cuid, data };
      forms.set(system_cuid, row);
      return row;
    },
  } satisfies Omit<SystemMetadataRepository, 'ds'>;
  const access = { visible: async (c: Caller, id: string) => (id === SYSTEM.system_cuid && sees(c) ? SYSTEM : undefined) };
  const crud = { forgetAllCounts: () => void forgotten++ };
  const sut = new SystemMetadataService(
    repo as unknown as SystemMetadataRepository,
    new SystemAccessService(access as unknown as SystemAccessRepository),
    crud as unknown as CrudService,
  );
  return { sut, forms, forgotten: () => forgotten };
}

const basicA = actor('u1', 'A', 3);
const expertA = actor('u2', 'A', 2);
const expertB = actor('u3', 'B', 2);

describe('SystemMetadataService', () => {
  it('template: each section with its fieldsets; a fieldset stored in a broken shape shows no fields; translations default to {}', async () => {
    const { sut } = world();
    const template = await sut.template(basicA);
    expect(template.map((s) => [s.title, s.fieldsets.map((f) => [f.title, f.fields.length, f.translations])])).toEqual([
      [
        'Site',
        [
          ['Roof', 1, {}],
          ['Broken', 0, {}],
        ],
      ],
      ['Empty', []],
    ]);
  });

  it('forSystem: the template, the saved data (else {}), and whether the caller may change it', async () => {
    const { sut } = world();
    expect(await sut.forSystem(basicA, 'sys1')).toMatchObject({ data: {}, metadata_cuid: null, canChange: false });
    expect(await sut.forSystem(expertA, 'sys1')).toMatchObject({ canChange: true });
    expect(await codeOf(sut.forSystem(expertB, 'sys1'))).toBe('NOT_FOUND: System not found');
  });

  it('save: checked against the template and the permission, written once per system, counts forgotten', async () => {
    const { sut, forms, forgotten } = world();
    expect(await codeOf(sut.save(basicA, 'sys1', {}))).toMatch(/^FORBIDDEN/);
    expect(await codeOf(sut.save(expertA, 'sys1', { nope: {} }))).toMatch(/^BAD_REQUEST/);
    const first = await sut.save(expertA, 'sys1', {});
    const again = await sut.save(expertA, 'sys1', {});
    expect(again.metadata_cuid).toBe(first.metadata_cuid);
    expect(forms.size).toBe(1);
    expect(forgotten()).toBe(2);
    expect(await codeOf(sut.save(expertB, 'sys1', {}))).toBe('NOT_FOUND: System not found');
  });
});
