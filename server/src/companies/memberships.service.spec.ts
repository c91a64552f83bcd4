import type { Scope } from '../access/scope';
import type { TMembership, TMembershipRecord } from './companies.schema';
import type { MembershipsRepository } from './memberships.repository';
import { MembershipsService } from './memberships.service';
import { actor, codeOf } from '../../../test/factories/rules';

/** The rules of MembershipsService over an in-memory stand-in of its repository (no database). */

interface Row {
  membership_cuid: string;
  user_cuid: string;
  company_cuid: string;
  level: number;
  is_company_admin: boolean;
}

const USERS = ['root', 'admin', 'expert', 'basic', 'other', 'loner'];

function memoryMemberships(rows: Row[]) {
  const writes: string[] = [];
  const asMembership = (m: Row): TMembership => ({
    membership_cuid: m.membership_cuid,
    role_cuid: `role${m.level}`,
    user_cuid: m.user_cuid,
    company_cuid: m.company_cuid,
    is_company_admin: m.is_company_admin,
    company: { company_cuid: m.company_cuid, name: m.company_cuid, url: null, logo: null },
    user: { user_cuid: m.user_cuid, email: `${m.user_cuid}@example.com`, name: m.user_cuid, phone: null, inactive: false, meta: {} },
    role: { role_cuid: `role${m.level}`, name: `Level ${m.level}`, level: m.level, description: null },
  });
  const asRecord = (m: Row): TMembershipRecord => ({
    id: m.membership_cuid,
    membership_cuid: m.membership_cuid,
    role_cuid: `role${m.level}`,
    user_cuid: m.user_cuid,
    company_cuid: m.company_cuid,
    is_company_admin: m.is_company_admin,
    user_email: `${m.user_cuid}@example.com`,
    user_name: m.user_cuid,
    role_name: `Level ${m.level}`,
    role_level: m.level,
    company_name: m.company_cuid,
  });
  const visible = (s: Scope, m: Row) => s.superuser || s.adminCompanies.includes(m.company_cuid) || m.user_cuid === s.user_cuid;
  const reachable = (s: Scope, m: Row) => s.superuser || s.companies.includes(m.company_cuid);
  const byId = (id: string) => rows.find((m) => m.membership_cuid === id);
  const repo: MembershipsRepository = {
    async transaction(work) {
      const before = structuredClone(rows);
      try {
        return await work(repo, { query: async () => [] });
      } catch (e) {
        rows.splice(0, rows.length, ...before);
        throw e;
      }
    },
    ofUser: async (s, user_cuid) =>
      rows
        .filter((m) => m.user_cuid === user_cuid && (s.superuser || user_cuid === s.user_cuid || s.adminCompanies.includes(m.company_cuid)))
        .map(asMembership),
    userExists: async (_s, id) => USERS.includes(id),
    userReachable: async (s, id) => USERS.includes(id) && (s.superuser || rows.some((m) => m.user_cuid === id && s.companies.includes(m.company_cuid))),
    companyExists: async (_s, id) => ['A', 'B'].includes(id),
    role: async (_s, id) => (/^role[0-3]$/.test(id) ? { role_cuid: id, level: Number(id.slice(4)) } : undefined),
    userLevels: async (_s, id) => rows.filter((m) => m.user_cuid === id).map(({ company_cuid, level }) => ({ company_cuid, level })),
    isMember: async (_s, user_cuid, company_cuid) => rows.some((m) => m.user_cuid === user_cuid && m.company_cuid === company_cuid),
    lockMembership: async (s, id) => {
      const m = byId(id);
      return m && reachable(s, m) ? asMembership(m) : undefined;
    },
    membership: async (_s, id) => {
      const m = byId(id);
      return m && asMembership(m);
    },
    setRole: async (_s, id, role_cuid, is_company_admin) => {
      writes.push(`setRole ${id}`);
      Object.assign(byId(id)!, { level: Number(role_cuid.slice(4)), is_company_admin });
    },
    list: async (s) => {
      const data = rows.filter((m) => visible(s, m)).map(asRecord);
      return { data, total: data.length };
    },
    visibleMany: async (s, ids) => rows.filter((m) => ids.includes(m.membership_cuid) && visible(s, m)).map(asRecord),
    record: async (_s, id) => {
      const m = byId(id);
      return m && asRecord(m);
    },
    lockRecord: async (s, id) => {
      const m = byId(id);
      return m && reachable(s, m) ? asRecord(m) : undefined;
    },
    insert: async (_s, n) => {
      const membership_cuid = `m${rows.length + 1}`;
      rows.push({
        membership_cuid,
        user_cuid: n.user_cuid,
        company_cuid: n.company_cuid,
        level: Number(n.role_cuid.slice(4)),
        is_company_admin: n.is_company_admin,
      });
      return membership_cuid;
    },
    delete: async (_s, id) => {
      writes.push(`delete ${id}`);
      rows.splice(rows.indexOf(byId(id)!), 1);
    },
  };
  return { repo, writes };
}

function world() {
  const rows: Row[] = [
    { membership_cuid: 'mRoot', user_cuid: 'root', company_cuid: 'A', level: 0, is_company_admin: true },
    { membership_cuid: 'mAdmin', user_cuid: 'admin', company_cuid: 'A', level: 1, is_company_admin: true },
    { membership_cuid: 'mExpert', user_cuid: 'expert', company_cuid: 'A', level: 2, is_company_admin: false },
    { membership_cuid: 'mBasic', user_cuid: 'basic', company_cuid: 'A', level: 3, is_company_admin: false },
    { membership_cuid: 'mOther', user_cuid: 'other', company_cuid: 'B', level: 3, is_company_admin: false },
  ];
  const { repo, writes } = memoryMemberships(rows);
  return { rows, writes, service: new MembershipsService(repo) };
}

const ROOT = actor('root', 'A', 0, true);
const ADMIN = actor('admin', 'A', 1, true);
const EXPERT = actor('expert', 'A', 2);
const OTHER = actor('other', 'B', 3);

describe('MembershipsService rules (in-memory repository)', () => {
  it('manyForUser: nothing visible is NOT_FOUND unless the caller may see everything and the user exists', async () => {
    const { service } = world();
    await expect(service.manyForUser(ADMIN, 'basic')).resolves.toHaveLength(1);
    expect(await codeOf(service.manyForUser(OTHER, 'basic'))).toBe('NOT_FOUND: User not found');
    await expect(service.manyForUser(ROOT, 'loner')).resolves.toEqual([]);
    expect(await codeOf(service.manyForUser(ROOT, 'ghost'))).toBe('NOT_FOUND: User not found');
    await expect(service.manyForUser(actor('loner', 'A', 3), 'loner')).resolves.toEqual([]);
  });

  it('update: foreign membership NOT_FOUND; own membership, non-admin, and more powerful members FORBIDDEN', async () => {
    const { service } = world();
    expect(await codeOf(service.update(ADMIN, { membership_cuid: 'mOther', role_cuid: 'role2' }))).toBe('NOT_FOUND: Membership not found');
    expect(await codeOf(service.update(ADMIN, { membership_cuid: 'mAdmin', role_cuid: 'role2' }))).toBe('FORBIDDEN: You cannot change your own membership');
    expect(await codeOf(service.update(EXPERT, { membership_cuid: 'mBasic', role_cuid: 'role2' }))).toBe(
      'FORBIDDEN: Only an admin of this company can change its memberships',
    );
    expect(await codeOf(service.update(ADMIN, { membership_cuid: 'mBasic', role_cuid: 'role0' }))).toBe('FORBIDDEN: You cannot grant a role above your own');
    expect(await codeOf(service.update(ADMIN, { membership_cuid: 'mBasic', role_cuid: 'nope' }))).toBe('NOT_FOUND: Role not found');
  });

  it('update: nothing changing is BAD_REQUEST, or a no-op for the react-admin save', async () => {
    const { service, writes } = world();
    expect(await codeOf(service.update(ADMIN, { membership_cuid: 'mBasic', role_cuid: 'role3' }))).toBe('BAD_REQUEST: Nothing changes');
    await expect(service.updateRecord(ADMIN, 'mBasic', { role_cuid: 'role3' })).resolves.toMatchObject({ data: { role_level: 3 } });
    expect(writes).toEqual([]);
    await expect(service.update(ADMIN, { membership_cuid: 'mBasic', role_cuid: 'role2' })).resolves.toMatchObject({ role: { level: 2 } });
    expect(writes).toEqual(['setRole mBasic']);
  });

  it('create: foreign company NOT_FOUND, unknown user NOT_FOUND, second membership CONFLICT', async () => {
    const { service, rows } = world();
    const input = { user_cuid: 'other', company_cuid: 'A', role_cuid: 'role3' };
    expect(await codeOf(service.create(ADMIN, { ...input, company_cuid: 'B' }))).toBe('NOT_FOUND: Company not found');
    // "other" is no member of the caller's companies: unknown to a company admin, known to a superuser.
    expect(await codeOf(service.create(ADMIN, input))).toBe('NOT_FOUND: User not found');
    expect(await codeOf(service.create(ROOT, { ...input, user_cuid: 'basic' }))).toBe('CONFLICT: This user is already a member of this company');
    await expect(service.create(ROOT, input)).resolves.toMatchObject({ data: { user_cuid: 'other', company_cuid: 'A' } });
    expect(rows).toHaveLength(6);
  });

  it('remove: all or nothing, and never a more powerful member', async () => {
    const { service, rows } = world();
    expect(await codeOf(service.remove(ADMIN, ['mBasic', 'mRoot']))).toMatch(/^FORBIDDEN/);
    expect(rows.map((m) => m.membership_cuid)).toContain('mBasic');
    expect(await codeOf(service.remove(ADMIN, ['mOther']))).toBe('NOT_FOUND: Membership not found');
    await expect(service.remove(ADMIN, ['mBasic', 'mExpert'])).resolves.toHaveLength(2);
    expect(rows.map((m) => m.membership_cuid)).toEqual(['mRoot', 'mAdmin', 'mOther']);
  });

  it('getOne: a membership out of view is NOT_FOUND', async () => {
    const { service } = world();
    await expect(service.getOne(actor('basic', 'A', 3), 'mBasic')).resolves.toMatchObject({ data: { user_cuid: 'basic' } });
    expect(await codeOf(service.getOne(actor('basic', 'A', 3), 'mExpert'))).toBe('NOT_FOUND: Membership not found');
  });
});
