import type { DataProvider } from 'ra-core';
import { withOwnCompanies } from './ownCompanies';
import type { TSessionContext } from './session/auth-api';

const company = (cuid: string, name: string) => ({ company_cuid: cuid, name, url: null, logo: null });

function session(level: number, admin: boolean, companies: { company_cuid: string; name: string; url: null; logo: null }[]): TSessionContext {
  const user = { user_cuid: 'u1', email: 'u@x', name: 'U', phone: null, inactive: false, meta: {} };
  return {
    user,
    memberships: companies.map((c, i) => ({
      membership_cuid: `m${i}`,
      role_cuid: `r${level}`,
      user_cuid: 'u1',
      company_cuid: c.company_cuid,
      is_company_admin: admin,
      company: c,
      user,
      role: { role_cuid: `r${level}`, name: `L${level}`, level, description: null },
    })),
    notificationBlacklist: [],
    portalNotificationBlacklist: [],
    isSuperUser: level === 0,
  };
}

/** A provider that records what would go over the wire. */
function recording() {
  const calls: string[] = [];
  const answer = (resource: string, method: string) => {
    calls.push(`${resource}.${method}`);
    return Promise.resolve({ data: [], total: 0 } as never);
  };
  const provider = {
    getList: (r: string) => answer(r, 'getList'),
    getOne: (r: string) => answer(r, 'getOne'),
    getMany: (r: string) => answer(r, 'getMany'),
    getManyReference: (r: string) => answer(r, 'getManyReference'),
  } as unknown as DataProvider;
  return { provider, calls };
}

const listParams = { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' as const }, filter: {} };

describe('company reads of a role that may not read companies', () => {
  const demo = company('c-demo', 'Demo Solar Ltd');
  const other = company('c-other', 'Other Energy Co');

  it.each([
    ['Basic', 3],
    ['Expert', 2],
    ['Installer who is not a company admin', 1],
  ])('%s: list, one and many come from the memberships, nothing goes to company.*', async (_who, level) => {
    const { provider, calls } = recording();
    const sut = withOwnCompanies(provider, () => session(level, false, [other, demo, demo]));
    const list = await sut.getList('company', listParams);
    expect(list).toEqual({
      total: 2,
      data: [expect.objectContaining({ id: 'c-demo', name: 'Demo Solar Ltd' }), expect.objectContaining({ id: 'c-other', name: 'Other Energy Co' })],
    });
    expect((await sut.getList('company', { ...listParams, filter: { q: 'energy' } })).data.map((r) => r.id)).toEqual(['c-other']);
    expect((await sut.getList('company', { ...listParams, pagination: { page: 2, perPage: 1 } })).data.map((r) => r.id)).toEqual(['c-other']);
    expect((await sut.getMany('company', { ids: ['c-demo', 'c-foreign'] })).data.map((r) => r.name)).toEqual(['Demo Solar Ltd']);
    expect((await sut.getOne('company', { id: 'c-other' })).data.name).toBe('Other Energy Co');
    await expect(sut.getOne('company', { id: 'c-foreign' })).rejects.toMatchObject({ status: 404 });
    expect(calls).toEqual([]);
    // Other resources still go to the server.
    await sut.getList('site', listParams);
    await sut.getMany('system', { ids: ['s1'] });
    expect(calls).toEqual(['site.getList', 'system.getMany']);
  });

  it('a company admin and a superuser get the server answer (they may read companies)', async () => {
    for (const context of [session(1, true, [demo]), session(0, true, [demo])]) {
      const { provider, calls } = recording();
      const sut = withOwnCompanies(provider, () => context);
      await sut.getList('company', listParams);
      await sut.getMany('company', { ids: ['c-demo'] });
      await sut.getOne('company', { id: 'c-demo' });
      expect(calls).toEqual(['company.getList', 'company.getMany', 'company.getOne']);
    }
  });

  it('without a session the call goes to the server (which answers 401 and signs out)', async () => {
    const { provider, calls } = recording();
    await withOwnCompanies(provider, () => null).getList('company', listParams);
    expect(calls).toEqual(['company.getList']);
  });
});
