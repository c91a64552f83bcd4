import type { Scope } from '../../server/src/access/scope';
import { systemJob } from '../../server/src/common/system-job';
import { DashboardsRepository } from '../../server/src/dashboards/dashboards.repository';
import { seedDemoDashboards } from '../../server/src/seed/demo-dashboards';
import { mediumWorld, type MediumWorld } from './world';
import { demoSystems } from './world-systems';

/** dashboards.repository.ts on a real database: whose dashboards a caller sees, and the write checks. */
describe('dashboards repository (database)', () => {
  let w: MediumWorld;
  let repo: DashboardsRepository;
  let s: Awaited<ReturnType<typeof demoSystems>>;
  const stranger: Scope = { user_cuid: 'stranger', superuser: false, companies: ['strangerco'], adminCompanies: [], levels: { strangerco: 0 } };
  const names = (rows: { name: string }[]) => rows.map((r) => r.name);

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new DashboardsRepository(w.ds);
    s = await demoSystems(w);
    // The demo's dashboards (seeded with the demo's alerts in the app; here alone).
    const roles = new Map(
      (await w.ds.query<{ role_cuid: string; level: number }[]>(`SELECT role_cuid, level::int AS level FROM role`)).map((r) => [r.level, r.role_cuid]),
    );
    const [{ entity_cuid: pv }] = await w.ds.query<{ entity_cuid: string }[]>(
      `SELECT e.entity_cuid FROM entity e JOIN entity_type_log_parameter_assignment a ON a.entitytype_id = e.entitytype_id WHERE e.system_cuid = $1 AND a.parameter_id = 'pv_power'`,
      [s.farm],
    );
    await seedDemoDashboards(w.ds.manager, {
      company_cuid: w.demo,
      farm_cuid: s.farm,
      battery_cuid: s.battery,
      pv_cuid: pv,
      roleCuid: (level) => roles.get(level)!,
    });
  });
  afterAll(() => w?.db.close());

  it("mine: company dashboards for the caller's level and above, then the systems' ones, with owner and role", async () => {
    expect(names(await repo.mine(await w.scope('basic@demo.local'), 200))).toEqual(['My energy', 'Farm at a glance']);
    expect(names(await repo.mine(await w.scope('expert@demo.local'), 200))).toEqual(['My energy', 'Energy and status', 'Farm at a glance']);
    const all = await repo.mine(await w.scope('superuser@demo.local'), 200);
    expect(names(all)).toEqual(['My energy', 'Energy and status', 'Installer view', 'Whole fleet', 'Farm at a glance']);
    expect(all[0]).toEqual({
      dashboard_cuid: expect.any(String),
      name: 'My energy',
      entityowner_cuid: w.demo,
      owner_kind: 'company',
      owner_name: 'Demo Solar Ltd',
      role_cuid: expect.any(String),
      role_name: expect.any(String),
      role_level: 3,
    });
    expect(names(await repo.mine(await w.scope('superuser@demo.local'), 200, s.farm))).toEqual(['Farm at a glance']);
    expect(names(await repo.mine(await w.scope('superuser@demo.local'), 2))).toEqual(['My energy', 'Energy and status']);
  });

  it("another company's caller sees none of the demo company's dashboards, whatever their level", async () => {
    expect(await repo.mine(await w.scope('other@demo.local'), 200)).toEqual([]);
    expect(await repo.mine(stranger, 200)).toEqual([]);
    expect(await repo.mine(stranger, 200, s.farm)).toEqual([]);
    expect(await repo.seesSystem(stranger, w.ds, s.farm)).toBe(false);
    expect(await repo.seesSystem(await w.scope('other@demo.local'), w.ds, s.farm, s.battery)).toBe(false);
  });

  it('seesSystem: a visible system, and a device only of that very system', async () => {
    const basic = await w.scope('basic@demo.local');
    expect(await repo.seesSystem(basic, w.ds, s.farm)).toBe(true);
    expect(await repo.seesSystem(basic, w.ds, s.farm, s.battery)).toBe(true);
    expect(await repo.seesSystem(basic, w.ds, s.clinic, s.battery)).toBe(false);
    expect(await repo.seesSystem(basic, w.ds, s.clinic)).toBe(true);
  });

  it('ownerExists and roleExists: a company or a system; a role', async () => {
    const job = systemJob('test');
    expect(await repo.ownerExists(job, w.demo)).toBe(true);
    expect(await repo.ownerExists(job, s.farm)).toBe(true);
    expect(await repo.ownerExists(job, 'nothing')).toBe(false);
    const [{ role_cuid }] = await w.ds.query<{ role_cuid: string }[]>(`SELECT role_cuid FROM role LIMIT 1`);
    expect(await repo.roleExists(job, role_cuid)).toBe(true);
    expect(await repo.roleExists(job, 'nothing')).toBe(false);
  });
});
