/**
 * The small repositories behind resource write hooks and branding, on a real database: each
 * answers about the row or name it is given and changes nothing else (another company's rows and
 * memberships stay as they were).
 */
import { DomainsRepository } from '../../server/src/branding/domains.repository';
import { logParameterUse } from '../../server/src/catalogue/catalogue.repository';
import { addCreatorMembership } from '../../server/src/companies/company.repository';
import { type MediumWorld, mediumWorld } from './world';

describe('write-hook and branding repositories', () => {
  let w: MediumWorld;
  beforeAll(async () => {
    w = await mediumWorld();
  });
  afterAll(async () => {
    await w?.db.close();
  });

  it('domains: names and companies that exist, and none that do not', async () => {
    const repo = new DomainsRepository(w.ds);
    await w.ds.query(`INSERT INTO root_domain (name, root_domain_data) VALUES ('medium.test', '{"title":"Medium"}')`);
    await w.ds.query(`INSERT INTO domain (name, sub_domain_name, root_domain_name, domain_data) VALUES ('a.medium.test', 'a', 'medium.test', '{}')`);
    expect(await repo.companyExists(w.demo)).toBe(true);
    expect(await repo.companyExists('no-such-company')).toBe(false);
    expect(await repo.rootDomainExists('medium.test')).toBe(true);
    expect(await repo.domainExists('b.medium.test')).toBe(false);
    expect(await repo.domainWithRoot('a.medium.test')).toMatchObject({ name: 'a.medium.test', root_name: 'medium.test' });
    expect(await repo.longestRootDomain(['x.a.medium.test', 'a.medium.test', 'medium.test', 'test'])).toMatchObject({ name: 'medium.test' });
  });

  it('a log parameter in use says where; an unused one says nothing', async () => {
    const [used] = await w.ds.query<{ parameter_id: string }[]>(`SELECT parameter_id FROM entity_type_log_parameter_assignment LIMIT 1`);
    expect(used).toBeDefined();
    expect(await logParameterUse(w.ds.manager, used.parameter_id)).toBe('device types');
    expect(await logParameterUse(w.ds.manager, 'no-such-parameter')).toBeNull();
  });

  it('the creator membership is added to the new company only', async () => {
    const others = async () => (await w.ds.query(`SELECT count(*)::int AS n FROM company_membership WHERE company_cuid = $1`, [w.other]))[0].n as number;
    const before = await others();
    await w.ds.query(`INSERT INTO company (company_cuid, name) VALUES ('medium-co', 'Medium Co')`);
    await w.ds.transaction((tx) => addCreatorMembership(tx, w.users['expert@demo.local'], 'medium-co', 2));
    const rows = await w.ds.query<unknown[]>(
      `SELECT m.user_cuid, m.is_company_admin, r.level FROM company_membership m JOIN role r USING (role_cuid) WHERE m.company_cuid = 'medium-co'`,
    );
    expect(rows).toEqual([{ user_cuid: w.users['expert@demo.local'], is_company_admin: true, level: 2 }]);
    expect(await others()).toBe(before);
  });
});
