import { can, canUse, isSuperUser, mayHandleLevel, mayManageUser, needsCurrentPassword, PERMISSIONS, POLICY } from './policy';
import { A, B, basic, basicAdmin, expert, installer, member, superuser } from './policy.fixture';

const nobody = member('none');

/** Spec §6, the coarse check and the table, and the rules about people: users, companies, memberships (systems: policy-systems.spec.ts). */
describe('policy (spec §6): the coarse check, the table, users, companies and memberships', () => {
  it('a level-N permission is granted by any membership with level <= N', () => {
    expect(canUse(installer, 'sites.create')).toBe(true); // needs 1
    expect(canUse(expert, 'sites.create')).toBe(false);
    expect(canUse(expert, 'systemConfiguration.view')).toBe(true); // needs 2
    expect(canUse(basic, 'systemConfiguration.view')).toBe(false);
    expect(canUse(member('multi', [A, 3], [B, 2]), 'systemConfiguration.view')).toBe(true);
  });

  it('a superuser always passes the coarse check, whatever the permission', () => {
    expect(isSuperUser(superuser)).toBe(true);
    for (const p of PERMISSIONS) expect(canUse(superuser, p)).toBe(true);
  });

  it('nobody but a superuser grants, changes or removes a role above their own in that company', () => {
    expect(mayHandleLevel(basicAdmin, A, 3)).toBe(true);
    expect(mayHandleLevel(basicAdmin, A, 2)).toBe(false);
    expect(mayHandleLevel(installer, A, 1)).toBe(true);
    expect(mayHandleLevel(installer, A, 0)).toBe(false);
    // the level counts in that company only
    expect(mayHandleLevel(member('mix', [A, 1], [B, 3]), B, 1)).toBe(false);
    expect(mayHandleLevel(superuser, B, 0)).toBe(true);
  });

  it('a user without memberships is granted nothing', () => {
    for (const p of PERMISSIONS) expect(can(nobody, p)).toBe(false);
  });

  describe('users', () => {
    it('view needs company admin on any membership', () => {
      expect(can(basicAdmin, 'users.view')).toBe(true);
      expect(can(installer, 'users.view')).toBe(false);
      expect(can(superuser, 'users.view')).toBe(true);
    });
    it('edit or deactivate a single user: superuser, the user themselves, or an admin of every company the user belongs to', () => {
      for (const perm of ['users.edit', 'users.deactivate'] as const) {
        expect(can(basic, perm, { user_cuid: 'bas', user_memberships: [{ company_cuid: A, level: 3 }] })).toBe(true);
        expect(can(basic, perm, { user_cuid: 'exp', user_memberships: [{ company_cuid: A, level: 2 }] })).toBe(false);
        expect(can(member('adm', [A, 2, true]), perm, { user_cuid: 'exp', user_memberships: [{ company_cuid: A, level: 2 }] })).toBe(true);
        expect(can(basicAdmin, perm, { user_cuid: 'finst', user_memberships: [{ company_cuid: B, level: 1 }] })).toBe(false);
        expect(can(superuser, perm, { user_cuid: 'finst', user_memberships: [{ company_cuid: B, level: 1 }] })).toBe(true);
      }
    });
    describe('users of several companies (no takeover across companies)', () => {
      // target: Basic in B, level-1 admin of A
      const twoCompanies = {
        user_cuid: 't',
        user_memberships: [
          { company_cuid: B, level: 3 },
          { company_cuid: A, level: 1 },
        ],
      };
      const adminOfB = member('admB', [B, 1, true]);
      const adminOfBothWeakInA = member('admBothWeak', [B, 1, true], [A, 2, true]);
      const adminOfBoth = member('admBoth', [B, 1, true], [A, 1, true]);
      const adminOfBMemberOfA = member('admBmemA', [B, 1, true], [A, 1]);
      it('an admin of one company the target belongs to cannot change them when they belong to another company too', () => {
        for (const perm of ['users.edit', 'users.deactivate'] as const) {
          expect(can(adminOfB, perm, twoCompanies)).toBe(false);
          expect(mayManageUser(adminOfB, twoCompanies)).toBe(false);
          // admin of both, but less powerful than the target in A
          expect(can(adminOfBothWeakInA, perm, twoCompanies)).toBe(false);
          // as powerful in A, but not its admin
          expect(can(adminOfBMemberOfA, perm, twoCompanies)).toBe(false);
          // admin of both and at least as powerful in each
          expect(can(adminOfBoth, perm, twoCompanies)).toBe(true);
          expect(can(superuser, perm, twoCompanies)).toBe(true);
        }
      });
      it('the power an actor holds elsewhere does not count in the target company', () => {
        // actor: level 0 nowhere, level 1 in C, Basic admin in B; target: Expert in B
        const target = { user_cuid: 't', user_memberships: [{ company_cuid: B, level: 2 }] };
        expect(can(member('mix', ['company-c', 1], [B, 3, true]), 'users.edit', target)).toBe(false);
        expect(can(member('mix2', ['company-c', 3], [B, 2, true]), 'users.edit', target)).toBe(true);
      });
      it('nobody but a superuser touches a superuser (even one who is only Basic in the actor company)', () => {
        const su = {
          user_cuid: 'su2',
          user_memberships: [
            { company_cuid: B, level: 3 },
            { company_cuid: 'ops', level: 0 },
          ],
        };
        for (const perm of ['users.edit', 'users.deactivate'] as const) {
          expect(can(adminOfB, perm, su)).toBe(false);
          expect(can(member('allAdmin', [B, 1, true], ['ops', 1, true]), perm, su)).toBe(false);
          expect(can(superuser, perm, su)).toBe(true);
        }
      });
      it("a user of no company is a superuser's only; oneself always", () => {
        expect(mayManageUser(adminOfB, { user_cuid: 'bare', user_memberships: [] })).toBe(false);
        expect(mayManageUser(superuser, { user_cuid: 'bare', user_memberships: [] })).toBe(true);
        expect(can(adminOfB, 'users.edit', { user_cuid: 'admB', user_memberships: [{ company_cuid: B, level: 1 }] })).toBe(true);
      });
    });
    it('delete any needs level 0', () => {
      expect(can(superuser, 'users.deleteAny')).toBe(true);
      expect(can(installer, 'users.deleteAny')).toBe(false);
      expect(can(basicAdmin, 'users.deleteAny')).toBe(false);
    });
    it('delete a single user is for a superuser and never for oneself', () => {
      expect(can(superuser, 'users.delete', { user_cuid: 'bas' })).toBe(true);
      expect(can(superuser, 'users.delete', { user_cuid: 'su' })).toBe(false);
      expect(can(basicAdmin, 'users.delete', { user_cuid: 'bas' })).toBe(false);
    });
  });

  describe('companies', () => {
    it('create and view need admin', () => {
      for (const p of ['companies.create', 'companies.view'] as const) {
        expect(can(basicAdmin, p)).toBe(true);
        expect(can(installer, p)).toBe(false);
      }
    });
    it('edit single needs admin of that company', () => {
      expect(can(basicAdmin, 'companies.edit', { company_cuid: A })).toBe(true);
      expect(can(basicAdmin, 'companies.edit', { company_cuid: B })).toBe(false);
      expect(can(superuser, 'companies.edit', { company_cuid: B })).toBe(true);
    });
    it('delete needs level 0', () => {
      expect(can(superuser, 'companies.delete')).toBe(true);
      expect(can(basicAdmin, 'companies.delete')).toBe(false);
      expect(can(installer, 'companies.delete')).toBe(false);
    });
  });

  describe('membership edit', () => {
    it("nobody but a superuser edits, adds or removes a membership of a superuser (even a Basic one in the admin's company)", () => {
      const adminOfB = member('admB', [B, 1, true]);
      const su = {
        user_cuid: 'su2',
        company_cuid: B,
        membership_level: 3,
        user_memberships: [
          { company_cuid: B, level: 3 },
          { company_cuid: A, level: 0 },
        ],
      };
      expect(can(adminOfB, 'memberships.edit', su)).toBe(false);
      expect(can(adminOfB, 'memberships.edit', { ...su, user_memberships: [{ company_cuid: B, level: 3 }] })).toBe(true);
      expect(can(superuser, 'memberships.edit', su)).toBe(true);
    });
    it('an admin of the company may edit others but not themselves', () => {
      expect(can(basicAdmin, 'memberships.edit', { user_cuid: 'exp', company_cuid: A, membership_level: 2 })).toBe(true);
      expect(can(basicAdmin, 'memberships.edit', { user_cuid: 'badm', company_cuid: A, membership_level: 3 })).toBe(false);
      expect(can(basicAdmin, 'memberships.edit', { user_cuid: 'finst', company_cuid: B, membership_level: 1 })).toBe(false);
      expect(can(expert, 'memberships.edit', { user_cuid: 'bas', company_cuid: A, membership_level: 3 })).toBe(false);
    });
    it('a superuser may edit anyone, but not their own role if it is level 0', () => {
      expect(can(superuser, 'memberships.edit', { user_cuid: 'finst', company_cuid: B, membership_level: 1 })).toBe(true);
      expect(can(superuser, 'memberships.edit', { user_cuid: 'su', company_cuid: A, membership_level: 0 })).toBe(false);
      const suWithOther = member('su', [A, 0, true], [B, 2]);
      expect(can(suWithOther, 'memberships.edit', { user_cuid: 'su', company_cuid: B, membership_level: 2 })).toBe(true);
    });
  });

  it('every permission carries a level and the spec line it comes from', () => {
    for (const p of PERMISSIONS) {
      expect([0, 1, 2, 3]).toContain(POLICY[p].level);
      expect(POLICY[p].spec.length).toBeGreaterThan(5);
    }
  });

  it('one’s own password, or own email to another address, needs the current password; another user’s does not', () => {
    const me = { user_cuid: 'exp', email: 'me@x.test' };
    expect(needsCurrentPassword(expert, me, { password: 'new one' })).toBe(true);
    expect(needsCurrentPassword(expert, me, { email: 'other@x.test' })).toBe(true);
    expect(needsCurrentPassword(expert, me, { email: 'me@x.test' })).toBe(false);
    expect(needsCurrentPassword(expert, me, {})).toBe(false);
    expect(needsCurrentPassword(superuser, me, { password: 'new one', email: 'other@x.test' })).toBe(false);
    expect(needsCurrentPassword(superuser, { user_cuid: 'su', email: 'su@x.test' }, { password: 'new one' })).toBe(true);
  });
});
