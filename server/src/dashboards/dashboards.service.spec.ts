import { actor, codeOf } from '../../../test/factories/rules';
import type { Scope } from '../access/scope';
import type { DashboardsRepository, MineDashboardRow } from './dashboards.repository';
import { DashboardsService, MINE_LIMIT } from './dashboards.service';

/** The rules of DashboardsService over an in-memory stand-in of its repository (no database). */
function world() {
  const asked: { scope: Scope; limit: number; system_cuid?: string }[] = [];
  const repo = {
    mine: async (scope: Scope, limit: number, system_cuid?: string): Promise<MineDashboardRow[]> => (asked.push({ scope, limit, system_cuid }), []),
    ownerExists: async (_c: unknown, id: unknown) => id === 'companyA' || id === 'sys1',
    roleExists: async (_c: unknown, id: unknown) => id === 'role3',
    seesSystem: async () => false,
  } satisfies Omit<DashboardsRepository, 'ds'>;
  return { sut: new DashboardsService(repo as unknown as DashboardsRepository), asked };
}

describe('DashboardsService', () => {
  it("mine: the caller's scope (with their level per company), at most MINE_LIMIT, of one system if asked", async () => {
    const { sut, asked } = world();
    await sut.mine(actor('u1', 'companyA', 3));
    await sut.mine(actor('u1', 'companyA', 3), 'sys1');
    expect(asked).toEqual([
      { scope: expect.objectContaining({ user_cuid: 'u1', companies: ['companyA'], levels: { companyA: 3 } }), limit: MINE_LIMIT, system_cuid: undefined },
      expect.objectContaining({ limit: MINE_LIMIT, system_cuid: 'sys1' }),
    ]);
  });

  it('checkInput: the owner must be a company or a system, the role a role; absent fields are not checked', async () => {
    const { sut } = world();
    expect(await codeOf(sut.checkInput({ entityowner_cuid: 'companyA', role_cuid: 'role3' }))).toBe('OK');
    expect(await codeOf(sut.checkInput({ entityowner_cuid: 'sys1', role_cuid: null }))).toBe('OK');
    expect(await codeOf(sut.checkInput({}))).toBe('OK');
    expect(await codeOf(sut.checkInput({ entityowner_cuid: 'nothing' }))).toBe('NOT_FOUND: Owner not found');
    expect(await codeOf(sut.checkInput({ role_cuid: 'nothing' }))).toBe('NOT_FOUND: Role not found');
  });
});
