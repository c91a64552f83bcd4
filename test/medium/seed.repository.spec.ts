/**
 * Database preparation (server/src/seed/seed.repository.ts) on a real database: the first
 * superuser once, the default metadata template once, and the demo's alerts on its own company.
 */
import { ensureInitialSuperuser } from '../../server/src/seed/initial-superuser';
import { seedMetadataTemplate } from '../../server/src/seed/metadata-template-seed';
import { insertDemoMailChannel, insertDemoTriggers } from '../../server/src/seed/seed.repository';
import { type MediumWorld, mediumWorld } from './world';

describe('seed repository', () => {
  let w: MediumWorld;
  beforeAll(async () => {
    w = await mediumWorld();
  });
  afterAll(async () => {
    await w?.db.close();
  });

  it('the first superuser: created once, as an admin Superuser of the named company', async () => {
    expect(await ensureInitialSuperuser(w.ds, ' First@Example.test ', 'a long enough password', 'First Co')).toBe(true);
    expect(await ensureInitialSuperuser(w.ds, 'first@example.test', 'another password', 'First Co')).toBe(false);
    const rows = await w.ds.query<unknown[]>(
      `SELECT c.name, r.level, m.is_company_admin FROM "user" u JOIN company_membership m USING (user_cuid) JOIN role r USING (role_cuid) JOIN company c USING (company_cuid) WHERE u.email = 'first@example.test'`,
    );
    expect(rows).toEqual([{ name: 'First Co', level: 0, is_company_admin: true }]);
  });

  it('the metadata template is written only when there is none', async () => {
    // The demo seed wrote it already.
    expect(await seedMetadataTemplate(w.ds.manager)).toBe(false);
    await w.ds.query(`DELETE FROM system_metadata_template_fieldset`);
    await w.ds.query(`DELETE FROM system_metadata_template_section`);
    expect(await seedMetadataTemplate(w.ds.manager)).toBe(true);
    const [{ n }] = await w.ds.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM system_metadata_template_fieldset`);
    expect(n).toBeGreaterThan(0);
  });

  it('demo alerts: triggers on the given system and a mail channel of its company serving them, nothing of another company', async () => {
    const [system] = await w.ds.query<{ system_cuid: string }[]>(`SELECT system_cuid FROM system WHERE company_cuid = $1 LIMIT 1`, [w.demo]);
    const otherChannels = async () =>
      (await w.ds.query(`SELECT count(*)::int AS n FROM notification_channel WHERE company_cuid = $1`, [w.other]))[0].n as number;
    const before = await otherChannels();
    const trigger = {
      trigger_cuid: 'medium-trigger-1',
      name: 'Medium',
      severity_level: 'WARNING',
      args: { kind: 'offline', controller_id: 'x', after_seconds: 0 },
      message: 'm',
      release_message: 'r',
    };
    await w.ds.transaction(async (tx) => {
      await insertDemoTriggers(tx, system.system_cuid, [trigger]);
      await insertDemoMailChannel(tx, w.demo, [trigger.trigger_cuid]);
    });
    const links = await w.ds.query<unknown[]>(
      `SELECT c.company_cuid, l.enabled FROM notification_channel_to_trigger l JOIN notification_channel c USING (channel_cuid) WHERE l.trigger_cuid = 'medium-trigger-1'`,
    );
    expect(links).toEqual([{ company_cuid: w.demo, enabled: true }]);
    expect(await otherChannels()).toBe(before);
  });
});
