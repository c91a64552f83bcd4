import type { Scope } from '../access/scope';
import type { TGetListParams } from '../crud/crud.schema';
import { shareId, type SystemShare, type SystemSharingRepository } from './system-sharing.repository';
import { SystemSharingService } from './system-sharing.service';
import { actor, codeOf } from '../../../test/factories/rules';

/** The rules of SystemSharingService over an in-memory stand-in of its repository (no database). */

interface MemShare {
  system_cuid: string;
  company_cuid: string;
  membership_cuid: string | null;
  change: boolean;
}

/** Systems: S1 owned by A, S2 owned by B; companies A, B, C. S1 is shared with B read-only. */
function world() {
  const systems: Record<string, string> = { S1: 'A', S2: 'B' };
  const companies = ['A', 'B', 'C'];
  const memberships = [
    { user_cuid: 'admin', company_cuid: 'A', membership_cuid: 'mA' },
    { user_cuid: 'expert', company_cuid: 'A', membership_cuid: 'mE' },
    { user_cuid: 'other', company_cuid: 'B', membership_cuid: 'mB' },
    { user_cuid: 'stranger', company_cuid: 'C', membership_cuid: 'mC' },
  ];
  const shares: MemShare[] = [{ system_cuid: 'S1', company_cuid: 'B', membership_cuid: 'mA', change: false }];
  const calls: string[] = [];
  const record = (s: MemShare): SystemShare => ({
    ...s,
    id: shareId(s.system_cuid, s.company_cuid),
    company_name: `Company ${s.company_cuid}`,
    system_name: `System ${s.system_cuid}`,
    owner_company_cuid: systems[s.system_cuid],
  });
  const mine = (scope: Scope, company: string) => scope.superuser || scope.companies.includes(company);
  const visible = (scope: Scope, s: MemShare) => mine(scope, systems[s.system_cuid]) || mine(scope, s.company_cuid);
  const find = (system_cuid: string, company_cuid: string) => shares.find((s) => s.system_cuid === system_cuid && s.company_cuid === company_cuid);
  const byIds = (scope: Scope, ids: string[]) => shares.filter((s) => ids.includes(shareId(s.system_cuid, s.company_cuid)) && visible(scope, s)).map(record);
  const repo: SystemSharingRepository = {
    async transaction(work) {
      calls.push('transaction');
      const before = structuredClone(shares);
      try {
        return await work(repo, { query: async () => [] });
      } catch (e) {
        shares.splice(0, shares.length, ...before);
        throw e;
      }
    },
    list: async (scope, params) => {
      calls.push(`list ${JSON.stringify(params.filter)} ${params.sort?.field}`);
      const data = shares.filter((s) => visible(scope, s)).map(record);
      return { data, total: data.length };
    },
    visibleMany: async (scope, ids) => byIds(scope, ids),
    lockVisible: async (scope, id) => byIds(scope, [id])[0],
    record: async (_scope, system_cuid, company_cuid) => {
      const s = find(system_cuid, company_cuid);
      return s && record(s);
    },
    visibleSystem: async (scope, id) => {
      const owner = systems[id];
      if (!owner) return undefined;
      return mine(scope, owner) || shares.some((s) => s.system_cuid === id && mine(scope, s.company_cuid)) ? { company_cuid: owner } : undefined;
    },
    companyExists: async (_scope, id) => companies.includes(id),
    shareExists: async (_scope, system_cuid, company_cuid) => !!find(system_cuid, company_cuid),
    ownMembership: async (scope, company) => memberships.find((m) => m.user_cuid === scope.user_cuid && m.company_cuid === company)?.membership_cuid,
    insert: async (_scope, share) => {
      calls.push(`insert ${share.system_cuid}:${share.company_cuid}`);
      shares.push({ ...share });
    },
    setChange: async (_scope, system_cuid, company_cuid, change) => {
      calls.push(`setChange ${system_cuid}:${company_cuid}`);
      find(system_cuid, company_cuid)!.change = change;
    },
    delete: async (_scope, system_cuid, company_cuid) => {
      shares.splice(shares.indexOf(find(system_cuid, company_cuid)!), 1);
    },
  };
  let forgotten = 0;
  const service = new SystemSharingService(repo, { forgetAllCounts: () => void forgotten++ });
  return { service, shares, calls, forgotten: () => forgotten };
}

const ADMIN = actor('admin', 'A', 1, true);
const EXPERT = actor('expert', 'A', 2);
const OTHER = actor('other', 'B', 1, true);
const STRANGER = actor('stranger', 'C', 1, true);

const PAGE: TGetListParams = { pagination: { page: 1, perPage: 10 }, filter: {} };

describe('SystemSharingService rules (in-memory repository)', () => {
  it('getList refuses an unknown reference, filter or sort before reading; the reference becomes a filter', async () => {
    const { service, calls } = world();
    expect(await codeOf(service.getList(ADMIN, PAGE, { target: 'owner_company_cuid', id: 'A' }))).toBe('BAD_REQUEST: Unknown reference: owner_company_cuid');
    expect(await codeOf(service.getList(ADMIN, { ...PAGE, filter: { nope: 1 } }))).toBe('BAD_REQUEST: Unknown filter: nope');
    expect(await codeOf(service.getList(ADMIN, { ...PAGE, sort: { field: 'nope', order: 'ASC' } }))).toBe('BAD_REQUEST: Cannot sort by nope');
    expect(calls).toEqual([]);
    await expect(service.getList(ADMIN, { ...PAGE, filter: { q: 'x', nope: '' } }, { target: 'system_cuid', id: 'S1' })).resolves.toMatchObject({ total: 1 });
    expect(calls).toEqual(['list {"q":"x","nope":"","system_cuid":"S1"} company_name']);
  });

  it('getOne: a share out of view answers NOT_FOUND, like a missing one', async () => {
    const { service } = world();
    await expect(service.getOne(OTHER, 'S1:B')).resolves.toMatchObject({ data: { owner_company_cuid: 'A', change: false } });
    expect(await codeOf(service.getOne(STRANGER, 'S1:B'))).toBe('NOT_FOUND: Share not found');
    expect(await codeOf(service.getOne(ADMIN, 'S1:C'))).toBe('NOT_FOUND: Share not found');
  });

  it('access: only the owner side at level 1 may change or remove', async () => {
    const { service } = world();
    expect(await service.access(ADMIN, ['S1:B'])).toEqual({ data: { 'S1:B': { edit: true, delete: true } } });
    expect(await service.access(EXPERT, ['S1:B'])).toEqual({ data: { 'S1:B': { edit: false, delete: false } } });
    expect(await service.access(OTHER, ['S1:B'])).toEqual({ data: { 'S1:B': { edit: false, delete: false } } });
    expect(await service.access(STRANGER, ['S1:B'])).toEqual({ data: {} });
  });

  it('create: an invisible system is NOT_FOUND, the receiving side FORBIDDEN, the owner company a field error, a second share CONFLICT', async () => {
    const { service, shares, forgotten } = world();
    expect(await codeOf(service.create(STRANGER, { system_cuid: 'S1', company_cuid: 'C', change: false }))).toBe('NOT_FOUND: System not found');
    expect(await codeOf(service.create(OTHER, { system_cuid: 'S1', company_cuid: 'C', change: false }))).toMatch(/^FORBIDDEN/);
    expect(await codeOf(service.create(EXPERT, { system_cuid: 'S1', company_cuid: 'C', change: false }))).toMatch(/^FORBIDDEN/);
    expect(await codeOf(service.create(ADMIN, { system_cuid: 'S1', company_cuid: 'A', change: false }))).toBe(
      'BAD_REQUEST: A system is not shared with its owner company',
    );
    expect(await codeOf(service.create(ADMIN, { system_cuid: 'S1', company_cuid: 'Z', change: false }))).toBe('NOT_FOUND: Company not found');
    expect(await codeOf(service.create(ADMIN, { system_cuid: 'S1', company_cuid: 'B', change: true }))).toBe(
      'CONFLICT: The system is already shared with this company',
    );
    expect(shares).toHaveLength(1);
    await expect(service.create(ADMIN, { system_cuid: 'S1', company_cuid: 'C', change: true })).resolves.toEqual({
      data: expect.objectContaining({ id: 'S1:C', membership_cuid: 'mA', change: true, owner_company_cuid: 'A' }),
    });
    // Every write, refused or not, forgets the cached counts.
    expect(forgotten()).toBe(7);
  });

  it('update: owner side only; nothing to change writes nothing', async () => {
    const { service, calls } = world();
    expect(await codeOf(service.update(OTHER, 'S1:B', { change: true }))).toMatch(/^FORBIDDEN/);
    expect(await codeOf(service.update(STRANGER, 'S1:B', { change: true }))).toBe('NOT_FOUND: Share not found');
    await expect(service.update(ADMIN, 'S1:B', {})).resolves.toMatchObject({ data: { change: false } });
    expect(calls.some((c) => c.startsWith('setChange'))).toBe(false);
    await expect(service.update(ADMIN, 'S1:B', { change: true })).resolves.toMatchObject({ data: { change: true } });
  });

  it('delete: all or nothing', async () => {
    const { service, shares } = world();
    await service.create(ADMIN, { system_cuid: 'S1', company_cuid: 'C', change: false });
    expect(await codeOf(service.delete(ADMIN, ['S1:B', 'S2:A']))).toBe('NOT_FOUND: Share not found');
    expect(shares).toHaveLength(2);
    await expect(service.delete(ADMIN, ['S1:B', 'S1:C', 'S1:B'])).resolves.toHaveLength(2);
    expect(shares).toEqual([]);
  });
});
