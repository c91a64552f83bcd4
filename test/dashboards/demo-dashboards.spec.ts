import { seedDemoDashboards } from '../../server/src/seed/demo-dashboards';
import { DEMO_COMPANY_NAME, DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';

/** The demo's default dashboards (laid down by `npm start`'s seed, asked for here): one per role level and one for the farm. */
describe('demo dashboards', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    const ds = t.db.dataSource;
    const [{ company_cuid }] = await ds.query(`SELECT company_cuid FROM company WHERE name = $1`, [DEMO_COMPANY_NAME]);
    const [{ system_cuid }] = await ds.query(`SELECT system_cuid FROM system WHERE name = $1`, [DEMO_SYSTEMS.farm]);
    const devices = await ds.query(`SELECT entity_cuid, entitytype_id FROM entity WHERE system_cuid = $1`, [system_cuid]);
    const roles = new Map<number, string>(
      (await ds.query(`SELECT role_cuid, level FROM role`)).map((r: { role_cuid: string; level: number }) => [Number(r.level), r.role_cuid]),
    );
    const device = (type: string) => devices.find((d: { entitytype_id: string }) => d.entitytype_id === type).entity_cuid;
    await ds.transaction((m) =>
      seedDemoDashboards(m, {
        company_cuid,
        farm_cuid: system_cuid,
        battery_cuid: device('pylontech-us5000'),
        pv_cuid: device('victron-smartsolar-mppt-250-100'),
        roleCuid: (l) => roles.get(l)!,
      }),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('each demo role finds its own default dashboard and the ones below it; the other company finds none', async () => {
    const expected: Record<string, string[]> = {
      superuser: ['Energy and status', 'Farm at a glance', 'Installer view', 'My energy', 'Whole fleet'],
      installer: ['Energy and status', 'Farm at a glance', 'Installer view', 'My energy'],
      expert: ['Energy and status', 'Farm at a glance', 'My energy'],
      basic: ['Farm at a glance', 'My energy'],
      other: [],
    };
    for (const [who, names] of Object.entries(expected)) {
      const client = new HttpClient(t.baseUrl);
      expect((await client.login(`${who}@demo.local`)).status).toBe(200);
      const answer = await client.query('dashboard.mine');
      expect({ who, names: (answer.data as { name: string }[]).map((d) => d.name).sort() }).toEqual({ who, names });
    }
  });
});
