import type { Scope } from '../access/scope';
import { hashPassword } from '../auth/password';
import type { UserChanges, UsersRepository } from './users.repository';
import { EMAIL_UNUSABLE, UsersService } from './users.service';
import type { TUserRecord } from './users.schema';
import { actor, codeOf } from '../../../test/factories/rules';

/** The rules of UsersService over an in-memory stand-in of its repository (no database). */

interface MemUser {
  user_cuid: string;
  email: string;
  name: string;
  password: string | null;
  inactive: boolean;
  inactivated_by_user_cuid: string | null;
  meta: Record<string, any> | null;
}
interface MemMembership {
  user_cuid: string;
  company_cuid: string;
  level: number;
}

const ROLES = [0, 1, 2, 3].map((level) => ({ role_cuid: `role${level}`, name: `Level ${level}`, level, description: null, translations: {} }));

/** An in-memory UsersRepository with the same scoping (visible / reachable) as the SQL one. */
function memoryUsers(users: MemUser[], memberships: MemMembership[], companies: string[]) {
  const calls: string[] = [];
  const record = (u: MemUser): TUserRecord => ({
    id: u.user_cuid,
    user_cuid: u.user_cuid,
    email: u.email,
    name: u.name,
    phone: null,
    meta: u.meta ?? {},
    inactive: u.inactive,
    inactivated_at: null,
    inactivated_by_user_cuid: u.inactivated_by_user_cuid,
    created_at: new Date(0),
  });
  const inCompanies = (u: MemUser, list: string[]) => memberships.some((m) => m.user_cuid === u.user_cuid && list.includes(m.company_cuid));
  const visible = (s: Scope, u: MemUser) => s.superuser || u.user_cuid === s.user_cuid || inCompanies(u, s.adminCompanies);
  const reachable = (s: Scope, u: MemUser) => s.superuser || u.user_cuid === s.user_cuid || inCompanies(u, s.companies);
  const levels = (user_cuid: string) => memberships.filter((m) => m.user_cuid === user_cuid).map(({ company_cuid, level }) => ({ company_cuid, level }));
  const byId = (id: string) => users.find((u) => u.user_cuid === id);
  const repo: UsersRepository = {
    // All or nothing: the rows come back as they were when the work throws.
    async transaction(work) {
      calls.push('transaction');
      const before = structuredClone({ users, memberships });
      try {
        return await work(repo, { query: async () => [] });
      } catch (e) {
        users.splice(0, users.length, ...before.users);
        memberships.splice(0, memberships.length, ...before.memberships);
        throw e;
      }
    },
    roles: async () => ROLES,
    roleList: async () => ({ data: ROLES.map((r) => ({ ...r, id: r.role_cuid })), total: ROLES.length }),
    roleMany: async (_s, ids) => ROLES.filter((r) => ids.includes(r.role_cuid)).map((r) => ({ ...r, id: r.role_cuid })),
    roleLevel: async (_s, id) => ROLES.find((r) => r.role_cuid === id)?.level,
    companyExists: async (_s, id) => companies.includes(id),
    visibleByEmail: async (s, email) => {
      const u = users.find((x) => x.email === email.toLowerCase() && visible(s, x));
      return u && { user_cuid: u.user_cuid, email: u.email, name: u.name, inactive: u.inactive, meta: u.meta ?? {} };
    },
    blacklists: async () => ({ notification_blacklist: [], portal_notification_blacklist: [] }),
    lockOwnMeta: async (s) => {
      const u = byId(s.user_cuid);
      return u && { meta: u.meta };
    },
    writeOwnMeta: async (s, meta) => {
      byId(s.user_cuid)!.meta = meta;
    },
    visibleWithLevels: async (s, id) => {
      const u = byId(id);
      return u && visible(s, u) ? { user_cuid: u.user_cuid, memberships: levels(u.user_cuid) } : undefined;
    },
    setInactive: async (s, id, inactive) => {
      const u = byId(id)!;
      Object.assign(u, { inactive, inactivated_by_user_cuid: inactive ? s.user_cuid : null });
      return { user_cuid: u.user_cuid, inactive, inactivated_at: null, inactivated_by_user_cuid: u.inactivated_by_user_cuid };
    },
    list: async (s) => {
      const data = users.filter((u) => visible(s, u)).map(record);
      return { data, total: data.length };
    },
    visibleMany: async (s, ids) => users.filter((u) => ids.includes(u.user_cuid) && visible(s, u)).map(record),
    record: async (_s, id) => {
      const u = byId(id);
      return u && record(u);
    },
    signIn: async (_s, id) => {
      const u = byId(id);
      return u && { email: u.email, password: u.password };
    },
    lockReachable: async (s, id) => {
      const u = byId(id);
      return u && reachable(s, u) ? { user_cuid: u.user_cuid, email: u.email, password: u.password, memberships: levels(u.user_cuid) } : undefined;
    },
    emailTaken: async (_s, email, except) => users.some((u) => u.email === email && u.user_cuid !== except),
    insert: async (_s, n) => {
      const user_cuid = `u${users.length + 1}`;
      users.push({ user_cuid, email: n.email, name: n.name, password: n.password, inactive: n.inactive ?? false, inactivated_by_user_cuid: null, meta: null });
      memberships.push({ user_cuid, company_cuid: n.company_cuid, level: ROLES.find((r) => r.role_cuid === n.role_cuid)!.level });
      return user_cuid;
    },
    update: async (s, id, c: UserChanges) => {
      calls.push(`update ${id}`);
      const u = byId(id)!;
      if (c.email !== undefined) u.email = c.email;
      if (c.name !== undefined) u.name = c.name;
      if (c.password !== undefined) u.password = c.password;
      if (c.inactive !== undefined) Object.assign(u, { inactive: c.inactive, inactivated_by_user_cuid: c.inactive ? s.user_cuid : null });
    },
    delete: async (_s, id) => {
      users.splice(users.indexOf(byId(id)!), 1);
    },
  };
  return { repo, calls };
}

const user = (user_cuid: string, extra: Partial<MemUser> = {}): MemUser => ({
  user_cuid,
  email: `${user_cuid}@example.com`,
  name: user_cuid,
  password: null,
  inactive: false,
  inactivated_by_user_cuid: null,
  meta: null,
  ...extra,
});

/** Company A: admin (level 1, admin), expert (2), basic (3); company B: other (3); root is a superuser of A. */
function world() {
  const users = [user('root'), user('admin'), user('expert'), user('basic'), user('other')];
  const memberships: MemMembership[] = [
    { user_cuid: 'root', company_cuid: 'A', level: 0 },
    { user_cuid: 'admin', company_cuid: 'A', level: 1 },
    { user_cuid: 'expert', company_cuid: 'A', level: 2 },
    { user_cuid: 'basic', company_cuid: 'A', level: 3 },
    { user_cuid: 'other', company_cuid: 'B', level: 3 },
  ];
  const { repo, calls } = memoryUsers(users, memberships, ['A', 'B']);
  return { users, memberships, calls, service: new UsersService(repo) };
}

const ROOT = actor('root', 'A', 0, true);
const ADMIN = actor('admin', 'A', 1, true);
const EXPERT = actor('expert', 'A', 2);
const OTHER = actor('other', 'B', 3);

describe('UsersService rules (in-memory repository)', () => {
  it("findOneByEmail: a user outside the caller's view answers NOT_FOUND, like a missing one", async () => {
    const { service } = world();
    await expect(service.findOneByEmail(ADMIN, 'BASIC@example.com')).resolves.toMatchObject({ user_cuid: 'basic', notification_blacklist: [] });
    expect(await codeOf(service.findOneByEmail(OTHER, 'basic@example.com'))).toBe('NOT_FOUND: User not found');
    expect(await codeOf(service.findOneByEmail(ADMIN, 'nobody@example.com'))).toBe('NOT_FOUND: User not found');
  });

  it('setInactive: NOT_FOUND out of view, FORBIDDEN for a visible user the caller may not manage', async () => {
    const { service, users } = world();
    expect(await codeOf(service.setInactive(OTHER, 'basic', true))).toBe('NOT_FOUND: User not found');
    expect(await codeOf(service.setInactive(ADMIN, 'root', true))).toMatch(/^FORBIDDEN/);
    await expect(service.setInactive(ADMIN, 'basic', true)).resolves.toMatchObject({ inactive: true, inactivated_by_user_cuid: 'admin' });
    expect(users.find((u) => u.user_cuid === 'basic')!.inactive).toBe(true);
  });

  it("create: a foreign or missing company is NOT_FOUND; a role above one's own is FORBIDDEN", async () => {
    const { service } = world();
    const input = { email: 'new@example.com', password: 'long-enough', name: 'New', role_cuid: 'role3', company_cuid: 'B' };
    expect(await codeOf(service.create(ADMIN, input))).toBe('NOT_FOUND: Company not found');
    expect(await codeOf(service.create(ROOT, { ...input, company_cuid: 'C' }))).toBe('NOT_FOUND: Company not found');
    expect(await codeOf(service.create(EXPERT, { ...input, company_cuid: 'A' }))).toMatch(/^FORBIDDEN: Only an admin/);
    expect(await codeOf(service.create(ADMIN, { ...input, company_cuid: 'A', role_cuid: 'role0' }))).toBe('FORBIDDEN: You cannot grant a role above your own');
    expect(await codeOf(service.create(ADMIN, { ...input, company_cuid: 'A', role_cuid: 'nope' }))).toBe('NOT_FOUND: Role not found');
    await expect(service.create(ADMIN, { ...input, company_cuid: 'A' })).resolves.toMatchObject({ data: { email: 'new@example.com' } });
  });

  it('create without a password: refused while nobody sends invitations; else the user waits inactive and the inviter is asked after the insert', async () => {
    const { service, users } = world();
    const input = { email: 'invitee@example.com', name: 'Invitee', role_cuid: 'role3', company_cuid: 'A' };
    expect(await codeOf(service.create(ADMIN, input))).toBe('BAD_REQUEST: Required');
    expect(users.some((u) => u.email === 'invitee@example.com')).toBe(false);
    const invited: unknown[] = [];
    service.useInviter(async (invitee) => {
      // the user exists (committed) when the invitation is made
      invited.push({ ...invitee, stored: users.find((u) => u.user_cuid === invitee.user_cuid) });
      return { sent: false, message: 'later' };
    });
    const created = await service.create(ADMIN, { ...input, language: 'fr' }, { locale: 'en', host: 'portal.test' });
    expect(created).toMatchObject({ data: { email: 'invitee@example.com' }, invitation: { sent: false, message: 'later' } });
    expect(invited).toEqual([
      expect.objectContaining({
        email: 'invitee@example.com',
        locale: 'fr',
        answerLocale: 'en',
        host: 'portal.test',
        stored: expect.objectContaining({ password: null, inactive: true }),
      }),
    ]);
    // with a password: no invitation
    await service.create(ADMIN, { ...input, email: 'withpw@example.com', password: 'long-enough' });
    expect(invited).toHaveLength(1);
  });

  it('create: a taken email tells a superuser so, anybody else one answer that gives nothing away', async () => {
    const { service } = world();
    const input = { email: 'other@example.com', password: 'long-enough', name: 'Dup', role_cuid: 'role3', company_cuid: 'A' };
    expect(await codeOf(service.create(ADMIN, input))).toBe(`CONFLICT: ${EMAIL_UNUSABLE}`);
    expect(await codeOf(service.create(ROOT, input))).toBe('CONFLICT: A user with this email already exists');
  });

  it("update: one's own password needs the current one; a wrong one changes nothing", async () => {
    const { service, users, calls } = world();
    users.find((u) => u.user_cuid === 'expert')!.password = await hashPassword('the-old-password');
    expect(await codeOf(service.update(EXPERT, 'expert', { password: 'a-new-password' }))).toMatch(/^BAD_REQUEST: Enter your current password/);
    expect(await codeOf(service.update(EXPERT, 'expert', { password: 'a-new-password', current_password: 'wrong-guess' }))).toBe(
      'BAD_REQUEST: The current password is not right',
    );
    expect(calls.filter((c) => c.startsWith('update'))).toEqual([]);
    await expect(service.update(EXPERT, 'expert', { password: 'a-new-password', current_password: 'the-old-password' })).resolves.toMatchObject({
      data: { user_cuid: 'expert' },
    });
    expect(calls).toEqual(['transaction', 'update expert']);
  });

  it('update: a colleague the caller may not manage is FORBIDDEN, a user of another company NOT_FOUND', async () => {
    const { service } = world();
    expect(await codeOf(service.update(EXPERT, 'basic', { name: 'x' }))).toMatch(/^FORBIDDEN: Only the user/);
    expect(await codeOf(service.update(ADMIN, 'other', { name: 'x' }))).toBe('NOT_FOUND: User not found');
    await expect(service.update(ADMIN, 'basic', { name: 'Renamed' })).resolves.toMatchObject({ data: { name: 'Renamed' } });
  });

  it('update: nothing to write writes nothing', async () => {
    const { service, calls } = world();
    await service.update(ADMIN, 'basic', {});
    expect(calls).toEqual(['transaction']);
  });

  it('remove: never oneself, and all or nothing', async () => {
    const { service, users } = world();
    expect(await codeOf(service.remove(ROOT, ['root'], 'users.delete'))).toBe('FORBIDDEN: You cannot delete yourself');
    expect(await codeOf(service.remove(ROOT, ['basic', 'missing'], 'users.deleteAny'))).toBe('NOT_FOUND: User not found');
    expect(users.map((u) => u.user_cuid)).toContain('basic');
    await expect(service.remove(ROOT, ['basic', 'expert'], 'users.deleteAny')).resolves.toHaveLength(2);
    expect(users.map((u) => u.user_cuid)).toEqual(['root', 'admin', 'other']);
  });

  it('updatePreferences keeps the rest of meta', async () => {
    const { service, users } = world();
    users.find((u) => u.user_cuid === 'basic')!.meta = { theme: 'dark', preferences: { other: 1 } };
    await service.updatePreferences(actor('basic', 'A', 3), { toast_notifications_disabled: true });
    expect(users.find((u) => u.user_cuid === 'basic')!.meta).toEqual({
      theme: 'dark',
      preferences: { other: 1, toast_notifications: { toast_notifications_disabled: true } },
    });
  });

  it('roleOne: a missing role is NOT_FOUND', async () => {
    const { service } = world();
    await expect(service.roleOne('role2')).resolves.toMatchObject({ data: { level: 2 } });
    expect(await codeOf(service.roleOne('nope'))).toBe('NOT_FOUND: Role not found');
  });
});
