import {
  can,
  fileMayBelongTo,
  mayChangeChangelogEntry,
  mayStartUpload,
  mayUploadBrandAsset,
  PERMISSIONS,
  POLICY,
  seesSystem,
  uploadCompanyOfSystem,
} from './policy';
import { A, B, basic, basicAdmin, expert, installer, member, superuser } from './policy.fixture';

const foreignInstaller = member('finst', [B, 1]);
const nobody = member('none');

/** Spec §6, systems and what belongs to them: devices, changelog, catalogues, sites, events, channels, files (people: policy.spec.ts). */
describe('policy (spec §6): systems and what belongs to them', () => {
  describe('systems', () => {
    const own = { company_cuid: A, shares: [] };
    const sharedReadOnly = { company_cuid: B, shares: [{ company_cuid: A, change: false }] };
    const sharedWithChange = { company_cuid: B, shares: [{ company_cuid: A, change: true }] };
    it('edit and delete need level 1 and the owner company', () => {
      for (const p of ['systems.edit', 'systems.delete'] as const) {
        expect(can(installer, p, own)).toBe(true);
        expect(can(expert, p, own)).toBe(false);
        expect(can(foreignInstaller, p, own)).toBe(false);
        expect(can(superuser, p, { company_cuid: B })).toBe(true);
      }
    });
    it('shared systems need the change flag', () => {
      expect(can(installer, 'systems.edit', sharedReadOnly)).toBe(false);
      expect(can(installer, 'systems.edit', sharedWithChange)).toBe(true);
      expect(can(expert, 'systems.edit', sharedWithChange)).toBe(false);
    });
    it('a share with change edits in place: never deletes the system, never moves its records out or in', () => {
      expect(can(installer, 'systems.delete', sharedWithChange)).toBe(false);
      expect(can(installer, 'systems.delete', sharedReadOnly)).toBe(false);
      expect(can(installer, 'systems.move', sharedWithChange)).toBe(false);
      expect(can(installer, 'systems.move', own)).toBe(true);
      expect(can(expert, 'systems.move', own)).toBe(false);
      expect(can(superuser, 'systems.move', sharedWithChange)).toBe(true);
      expect(can(superuser, 'systems.delete', sharedWithChange)).toBe(true);
    });
    it('the level counts in the company concerned, not anywhere', () => {
      const installerElsewhere = member('mixed', [B, 1], [A, 3]);
      expect(can(installerElsewhere, 'systems.edit', own)).toBe(false);
    });
    it('viewing needs membership of the owner or of a company it is shared with', () => {
      expect(can(basic, 'systems.view', own)).toBe(true);
      expect(can(basic, 'systems.view', sharedReadOnly)).toBe(true);
      expect(can(basic, 'systems.view', { company_cuid: B })).toBe(false);
    });
    it('configuration view 2', () => {
      expect(can(expert, 'systemConfiguration.view', own)).toBe(true);
      expect(can(basic, 'systemConfiguration.view', own)).toBe(false);
    });
  });

  it('dashboard create and edit need level 0', () => {
    for (const p of ['dashboards.create', 'dashboards.edit'] as const) {
      expect(can(superuser, p)).toBe(true);
      expect(can(installer, p)).toBe(false);
    }
  });

  it('data processors: create/edit/delete 0; configure 0 for calculated values and 1 otherwise', () => {
    expect(can(installer, 'dataProcessors.create')).toBe(false);
    expect(can(superuser, 'dataProcessors.delete')).toBe(true);
    expect(can(installer, 'dataProcessors.configure', { entity_type_kind: 'DataSource', company_cuid: A })).toBe(true);
    expect(can(installer, 'dataProcessors.configure', { entity_type_kind: 'CalculatedValue', company_cuid: A })).toBe(false);
    expect(can(superuser, 'dataProcessors.configure', { entity_type_kind: 'CalculatedValue', company_cuid: B })).toBe(true);
    expect(can(expert, 'dataProcessors.configure', { entity_type_kind: 'DataSource', company_cuid: A })).toBe(false);
    // the level counts in the processor's company (or a company its system is shared with for change)
    expect(can(installer, 'dataProcessors.configure', { entity_type_kind: 'DataSource', company_cuid: B })).toBe(false);
    expect(can(installer, 'dataProcessors.configure', { entity_type_kind: 'DataSource', company_cuid: B, shares: [{ company_cuid: A, change: true }] })).toBe(
      true,
    );
    expect(can(installer, 'dataProcessors.configure', { entity_type_kind: 'DataSource', company_cuid: B, shares: [{ company_cuid: A, change: false }] })).toBe(
      false,
    );
  });

  it('levels count in their own company, for reads too: every target rule asks the level held in the record’s company', () => {
    const basicAexpertB = member('two', [A, 3], [B, 2]);
    const expertAbasicB = member('owt', [A, 2], [B, 3]);
    const ofA = { company_cuid: A };
    const sharedWithA = { company_cuid: 'company-c', shares: [{ company_cuid: A, change: false }] };
    // Every permission with a target rule that names a company, read or write, for both actors.
    const companyRules = new Set(['systemRead', 'systemWrite', 'companyMember', 'companyLevel', 'changelogEntry', 'processorKind']);
    for (const permission of PERMISSIONS) {
      const r = POLICY[permission] as { level: number; target?: string };
      if (!r.target || !companyRules.has(r.target) || r.level === 0) continue;
      for (const target of [ofA, sharedWithA]) {
        const t = { ...target, entity_type_kind: 'DataSource' };
        // as a one-company actor holding A's level would be judged
        expect([permission, can(basicAexpertB, permission, t)]).toEqual([permission, can(member('one', [A, 3]), permission, t)]);
        expect([permission, can(expertAbasicB, permission, t)]).toEqual([permission, can(member('one', [A, 2]), permission, t)]);
      }
    }
    expect(can(basicAexpertB, 'controllers.view', ofA)).toBe(false);
    expect(can(basicAexpertB, 'controllers.view', { company_cuid: B })).toBe(true);
    expect(can(basicAexpertB, 'changelog.create', ofA)).toBe(false);
    expect(can(basicAexpertB, 'sites.view', ofA)).toBe(false);
    expect(can(expertAbasicB, 'eventTriggers.view', sharedWithA)).toBe(true);
    expect(can(superuser, 'controllers.view', { company_cuid: B })).toBe(true);
  });

  it('controllers and devices: view 2, configure 1', () => {
    const own = { company_cuid: A };
    expect(can(expert, 'controllers.view', own)).toBe(true);
    expect(can(basic, 'controllers.view', own)).toBe(false);
    expect(can(installer, 'controllers.configure', own)).toBe(true);
    expect(can(expert, 'devices.configure', own)).toBe(false);
    expect(can(foreignInstaller, 'devices.configure', own)).toBe(false);
  });

  describe('changelog entries', () => {
    const own = { company_cuid: A, shares: [] };
    const ro = { company_cuid: B, shares: [{ company_cuid: A, change: false }] };
    const rw = { company_cuid: B, shares: [{ company_cuid: A, change: true }] };
    for (const perm of ['changelog.edit', 'changelog.delete'] as const) {
      it(`${perm}: level 2 in the owner company, or the author unless through a read-only share`, () => {
        expect(can(expert, perm, { ...own, user_cuid: 'someone' })).toBe(true);
        expect(can(basic, perm, { ...own, user_cuid: 'bas' })).toBe(false);
        // through a share: never another's entry
        expect(can(installer, perm, { ...rw, user_cuid: 'someone' })).toBe(false);
        expect(can(installer, perm, { ...ro, user_cuid: 'someone' })).toBe(false);
        // the author: through the owner company or a share with change, never a read-only share
        expect(can(expert, perm, { ...rw, user_cuid: 'exp' })).toBe(true);
        expect(can(expert, perm, { ...ro, user_cuid: 'exp' })).toBe(false);
        // an author who no longer sees the system
        expect(can(expert, perm, { company_cuid: B, shares: [], user_cuid: 'exp' })).toBe(false);
        expect(can(superuser, perm, { ...ro, user_cuid: 'someone' })).toBe(true);
        expect(mayChangeChangelogEntry(expert, 2, { ...ro, user_cuid: 'exp' })).toBe(false);
      });
    }
  });

  it('admin view 3, changelog 2, metadata view 3 / change 2, admin actions 0', () => {
    expect(can(basic, 'admin.view')).toBe(true);
    expect(can(expert, 'changelog.create', { company_cuid: A })).toBe(true);
    expect(can(basic, 'changelog.delete', { company_cuid: A })).toBe(false);
    expect(can(expert, 'changelog.delete', { company_cuid: A })).toBe(true);
    expect(can(basic, 'metadata.view', { company_cuid: A })).toBe(true);
    expect(can(basic, 'metadata.change', { company_cuid: A })).toBe(false);
    expect(can(expert, 'metadata.change', { company_cuid: A })).toBe(true);
    expect(can(expert, 'metadata.change', { company_cuid: B })).toBe(false);
    expect(can(installer, 'admin.actions')).toBe(false);
  });

  it('catalogues: controller create/delete 0; the other catalogues view 2, change 0', () => {
    expect(can(installer, 'catalogueControllers.create')).toBe(false);
    expect(can(installer, 'catalogueControllers.delete')).toBe(false);
    expect(can(superuser, 'catalogueControllers.delete')).toBe(true);
    for (const c of ['controllerTypes', 'entityTypes', 'entityCategories', 'interfaceTypes', 'logParameters', 'manufacturers', 'units']) {
      expect(can(expert, `${c}.view` as never)).toBe(true);
      expect(can(basic, `${c}.view` as never)).toBe(false);
      expect(can(installer, `${c}.change` as never)).toBe(false);
      expect(can(superuser, `${c}.change` as never)).toBe(true);
    }
  });

  it('sites: view 2; create, edit and delete 1 in own company', () => {
    expect(can(expert, 'sites.view', { company_cuid: A })).toBe(true);
    expect(can(expert, 'sites.view', { company_cuid: B })).toBe(false);
    for (const p of ['sites.create', 'sites.edit', 'sites.delete'] as const) {
      expect(can(installer, p, { company_cuid: A })).toBe(true);
      expect(can(installer, p, { company_cuid: B })).toBe(false);
      expect(can(expert, p, { company_cuid: A })).toBe(false);
    }
  });

  it('events: templates view 0, triggers view 2 and change 1', () => {
    expect(can(installer, 'eventTemplates.view')).toBe(false);
    expect(can(superuser, 'eventTemplates.view')).toBe(true);
    expect(can(expert, 'eventTriggers.view', { company_cuid: A })).toBe(true);
    expect(can(expert, 'eventTriggers.change', { company_cuid: A })).toBe(false);
    expect(can(installer, 'eventTriggers.change', { company_cuid: A })).toBe(true);
  });

  it('channels and notifications are open to all', () => {
    expect(can(basic, 'channels.view', { company_cuid: A })).toBe(true);
    expect(can(basic, 'notifications.view')).toBe(true);
    expect(can(basic, 'channels.change', { company_cuid: B })).toBe(false);
  });

  it('a system is seen by a superuser, the owner company and companies it is shared with (with or without change)', () => {
    const system = { company_cuid: A, shares: [{ company_cuid: B, change: false }] };
    expect(seesSystem(superuser, { company_cuid: 'company-z' })).toBe(true);
    expect(seesSystem(basic, system)).toBe(true);
    expect(seesSystem(foreignInstaller, system)).toBe(true);
    expect(seesSystem(foreignInstaller, { company_cuid: A })).toBe(false);
    expect(seesSystem(member('c', ['company-c', 1]), system)).toBe(false);
    expect(seesSystem(nobody, system)).toBe(false);
  });

  it('uploads: brand assets need admin actions (0); a file needs level 2 somewhere before the upload is read', () => {
    expect(mayUploadBrandAsset(superuser)).toBe(true);
    expect(mayUploadBrandAsset(installer)).toBe(false);
    expect(mayStartUpload(superuser)).toBe(true);
    expect(mayStartUpload(expert)).toBe(true);
    expect(mayStartUpload(member('multi', [A, 3], [B, 2]))).toBe(true);
    expect(mayStartUpload(basic)).toBe(false);
    expect(mayStartUpload(basicAdmin)).toBe(false);
    expect(mayStartUpload(nobody)).toBe(false);
  });

  it('files of a system go to the owner company, or to a company it is shared with for changes', () => {
    const C = 'company-c';
    const system = {
      company_cuid: A,
      shares: [
        { company_cuid: B, change: true },
        { company_cuid: C, change: false },
      ],
    };
    expect(uploadCompanyOfSystem(superuser, { company_cuid: 'company-z', shares: [] })).toBe('company-z');
    expect(uploadCompanyOfSystem(expert, system)).toBe(A);
    expect(uploadCompanyOfSystem(foreignInstaller, system)).toBe(B);
    expect(uploadCompanyOfSystem(member('c', [C, 1]), system)).toBeNull();
    expect(uploadCompanyOfSystem(member('ab', [B, 2], [A, 3]), system)).toBe(A);
    expect(fileMayBelongTo(system, A)).toBe(true);
    expect(fileMayBelongTo(system, B)).toBe(true);
    expect(fileMayBelongTo(system, C)).toBe(false);
    expect(fileMayBelongTo(system, 'company-z')).toBe(false);
  });
});
