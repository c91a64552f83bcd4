import { seedDemoDashboards } from './demo-dashboards';
import type { DataSource, EntityManager } from 'typeorm';
import { hashPassword } from '../auth/password';
import type { JsonObject } from '../../../shared/common/enums';
import { newCuid } from '../common/ids';
import { CompanyMembershipEntity } from '../companies/company-membership.entity';
import { RootDomainEntity } from '../branding/root-domain.entity';
import { CompanyEntity } from '../companies/company.entity';
import { ControllerOnlineStateEntity } from '../controllers/controller-online-state.entity';
import { ControllerEntity } from '../controllers/controller.entity';
import { DeviceEntity } from '../controllers/device-entity.entity';
import { SiteEntity } from '../sites/site.entity';
import { SystemChangelogEntity } from '../systems/system-changelog.entity';
import { SystemSharingEntity } from '../systems/system-sharing.entity';
import { SystemEntity } from '../systems/system.entity';
import { RoleEntity } from '../users/role.entity';
import { UserEntity } from '../users/user.entity';
import { seedDemoCatalogue } from './demo-catalogue-seed';
import { seedMetadataTemplate } from './metadata-template-seed';
import { seedDemoAlerts } from './demo-alerts-seed';
import { DEMO_COMPANY_NAME, DEMO_CONTROLLER_ID, DEMO_PASSWORD, DEMO_SYSTEMS, DEMO_USERS, OTHER_COMPANY_NAME } from './demo-data';
import { seedRoles } from './roles-seed';

export { DEMO_COMPANY_NAME, DEMO_CONTROLLER_ID, DEMO_PASSWORD, DEMO_SYSTEMS, DEMO_USERS, OTHER_COMPANY_NAME, type DemoUser } from './demo-data';
export { seedRoles } from './roles-seed';

// ---- demo data --------------------------------------------------------------------------------

/**
 * Demo companies, users, catalogue, sites, systems, a controller and its devices.
 * Idempotent: does nothing and returns false when the demo company already exists.
 */
/**
 * Lays down the demo (once). `alerts`: also the demo's triggers and e-mail channel (the embedded
 * `npm start` has them; tests leave them out so no alarm of the demo reaches their live streams).
 */
export async function seedDemo(ds: DataSource, options: { alerts?: boolean } = {}): Promise<boolean> {
  const exists = await ds.getRepository(CompanyEntity).exists({ where: { name: DEMO_COMPANY_NAME } });
  if (exists) return false;
  await seedRoles(ds);
  // One argon2id hash for every demo user: hashing is deliberately slow.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return ds.transaction(async (m) => {
    // Checked again inside the transaction in case two starts raced.
    if (await m.getRepository(CompanyEntity).exists({ where: { name: DEMO_COMPANY_NAME } })) return false;
    await createDemo(m, passwordHash, options.alerts ?? false);
    await seedMetadataTemplate(m);
    return true;
  });
}

async function createDemo(m: EntityManager, passwordHash: string, alerts: boolean): Promise<void> {
  const roles = await m.find(RoleEntity);
  const roleByLevel = new Map(roles.map((r) => [r.level, r.role_cuid]));
  const roleCuid = (level: number): string => {
    const cuid = roleByLevel.get(level);
    if (!cuid) throw new Error(`Role of level ${level} is missing`);
    return cuid;
  };

  // Companies
  const demo = { company_cuid: newCuid(), name: DEMO_COMPANY_NAME };
  const other = { company_cuid: newCuid(), name: OTHER_COMPANY_NAME };
  await m.insert(CompanyEntity, [
    { ...demo, url: 'https://demo-solar.example', meta: { country: 'KE' } },
    { ...other, url: 'https://other-energy.example', meta: { country: 'KE' } },
  ]);
  const companyCuid = (name: string): string => (name === DEMO_COMPANY_NAME ? demo.company_cuid : other.company_cuid);

  // Users and memberships
  const membershipByEmail = new Map<string, string>();
  const userByEmail = new Map<string, string>();
  for (const u of DEMO_USERS) {
    const user_cuid = newCuid();
    userByEmail.set(u.email, user_cuid);
    await m.insert(UserEntity, { user_cuid, email: u.email.toLowerCase(), password: passwordHash, name: u.name });
    const membership_cuid = newCuid();
    membershipByEmail.set(u.email, membership_cuid);
    await m.insert(CompanyMembershipEntity, {
      membership_cuid,
      user_cuid,
      company_cuid: companyCuid(u.company),
      role_cuid: roleCuid(u.level),
      is_company_admin: u.is_company_admin,
    });
  }

  const { cerboGx } = await seedDemoCatalogue(m);

  // Sites
  const nairobi = newCuid();
  const kisumu = newCuid();
  await m.insert(SiteEntity, [
    { site_cuid: nairobi, name: 'Nairobi Demo Farm', lat: -1.2921, long: 36.8219, company_cuid: demo.company_cuid },
    { site_cuid: kisumu, name: 'Kisumu Clinic', lat: -0.0917, long: 34.768, company_cuid: other.company_cuid },
  ]);

  // Systems
  const farm = newCuid();
  const workshop = newCuid();
  const clinic = newCuid();
  await m.insert(SystemEntity, [
    {
      system_cuid: farm,
      company_cuid: demo.company_cuid,
      name: DEMO_SYSTEMS.farm,
      deployment_date: '2024-03-15',
      asset_number: 'DSL-0001',
      timezone: 'Africa/Nairobi',
      site_cuid: nairobi,
    },
    {
      system_cuid: workshop,
      company_cuid: demo.company_cuid,
      name: DEMO_SYSTEMS.workshop,
      deployment_date: '2025-01-20',
      asset_number: 'DSL-0002',
      timezone: 'Africa/Nairobi',
      site_cuid: nairobi,
    },
    {
      system_cuid: clinic,
      company_cuid: other.company_cuid,
      name: DEMO_SYSTEMS.clinic,
      deployment_date: '2023-11-02',
      asset_number: 'OEC-0107',
      timezone: 'Africa/Nairobi',
      site_cuid: kisumu,
    },
  ]);
  await m.insert(SystemSharingEntity, [
    // The other company lets the demo company look at its clinic.
    {
      company_cuid: demo.company_cuid,
      system_cuid: clinic,
      membership_cuid: membershipByEmail.get('other@demo.local') ?? null,
      change: false,
    },
    // The demo company lets the other company change its workshop system.
    {
      company_cuid: other.company_cuid,
      system_cuid: workshop,
      membership_cuid: membershipByEmail.get('superuser@demo.local') ?? null,
      change: true,
    },
  ]);

  // The farm's controller and devices
  await m.insert(ControllerEntity, {
    controller_id: DEMO_CONTROLLER_ID,
    controllertype_cuid: cerboGx,
    company_cuid: demo.company_cuid,
    system_cuid: farm,
    name: 'Demo Farm Cerbo GX',
    serial_number: 'HQ2301DEMO1',
    ssh_port: 22,
    sw_version: 'v3.40',
    controller_info: { os: 'Venus OS', hardware: 'Cerbo GX MK2' },
    // Desired configuration (what "apply" sends); the simulated controller starts by running it.
    config: { log_interval_s: 60, heartbeat_s: 30, timezone: 'Africa/Nairobi', remote_console: false },
  });
  await m.insert(ControllerOnlineStateEntity, { controller_id: DEMO_CONTROLLER_ID, online_state: 'ONLINE' });
  const devices: Array<{ name: string; type: string; config: JsonObject }> = [
    {
      name: 'Inverter/charger',
      type: 'victron-multiplus-ii',
      config: { interface: 've-can', address: 0, max_charge_current: 70, ac_input_current_limit: 16, battery_min_soc: 20 },
    },
    {
      name: 'Battery bank',
      type: 'pylontech-us5000',
      config: { interface: 've-can', modules: 4, battery_min_soc: 20, battery_max_soc: 100, max_charge_current: 100, max_discharge_current: 100 },
    },
    {
      name: 'PV charger',
      type: 'victron-smartsolar-mppt-250-100',
      config: { interface: 've-can', address: 1, max_charge_current: 100, absorption_voltage: 56.8 },
    },
    { name: 'Backup genset', type: 'diesel-genset', config: { interface: 'modbus-tcp', unit_id: 3, start_soc: 25, stop_soc: 60, max_run_minutes: 240 } },
  ];
  const deviceCuids = devices.map(() => newCuid());
  await m.insert(
    DeviceEntity,
    devices.map((d, i) => ({
      entity_cuid: deviceCuids[i],
      name: d.name,
      controller_id: DEMO_CONTROLLER_ID,
      entitytype_id: d.type,
      system_cuid: farm,
      config: d.config,
    })),
  );

  if (alerts) await seedDemoAlerts(m, { system_cuid: farm, company_cuid: demo.company_cuid, battery_cuid: deviceCuids[1] });
  if (alerts)
    await seedDemoDashboards(m, { company_cuid: demo.company_cuid, farm_cuid: farm, battery_cuid: deviceCuids[1], pv_cuid: deviceCuids[2], roleCuid });

  // Branding per domain: the demo brand on localhost, the other company's on 127.0.0.1.
  await m.insert(RootDomainEntity, [
    {
      name: 'localhost',
      company_cuid: demo.company_cuid,
      root_domain_data: {
        owner_name: 'Demo Solar',
        description: 'Live view of the Demo Solar mini-grids, solar plants and batteries.',
        favicon_url: '/brand/favicon.svg',
        logo_url: '/brand/favicon.svg',
        colors: { primary: '#0c5b74', secondary: '#f2a900' },
      },
    },
    {
      name: '127.0.0.1',
      company_cuid: other.company_cuid,
      root_domain_data: {
        owner_name: 'Other Energy',
        description: 'Monitoring and control of Other Energy Co power systems.',
        favicon_url: '/brand/favicon-other.svg',
        logo_url: '/brand/favicon-other.svg',
        colors: { primary: '#3b1d5e', secondary: '#2ba6de' },
      },
    },
  ]);

  await m.insert(SystemChangelogEntity, {
    log_cuid: newCuid(),
    title: 'System commissioned',
    message: 'Controller, inverter, battery bank, PV charger and genset installed.',
    system_cuid: farm,
    user_cuid: userByEmail.get('installer@demo.local') ?? null,
    role_cuid: roleCuid(1),
  });
}
