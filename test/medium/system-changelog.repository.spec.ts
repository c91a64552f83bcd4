import { systemJob } from '../../server/src/common/system-job';
import { insertAutomaticChangelog } from '../../server/src/systems/system-changelog.repository';
import { mediumWorld, type MediumWorld } from './world';
import { demoSystems } from './world-systems';

/** system-changelog.repository.ts on a real database: the portal's own entries. */
describe('system changelog repository (database)', () => {
  let w: MediumWorld;
  let s: Awaited<ReturnType<typeof demoSystems>>;
  const job = systemJob('test-changelog');
  const entries = async (system_cuid: string) =>
    await w.ds.query<{ log_cuid: string; title: string; role_cuid: string | null; kind: string; ref: string | null; timestamp: Date }[]>(
      `SELECT log_cuid, title, message, user_cuid, role_cuid, kind::text AS kind, ref, "timestamp" FROM system_changelog WHERE system_cuid = $1 AND log_cuid LIKE 'auto%' ORDER BY log_cuid`,
      [system_cuid],
    );
  const row = (log_cuid: string, system_cuid: string, user_cuid: string | null, timestamp: Date | null = null) => ({
    log_cuid,
    timestamp,
    title: `Entry ${log_cuid}`,
    message: null,
    user_cuid,
    system_cuid,
    kind: 'COMMAND',
    ref: 'cmd-1',
  });

  beforeAll(async () => {
    w = await mediumWorld();
    s = await demoSystems(w);
  });
  afterAll(() => w?.db.close());

  it("writes each entry with its author's role in the system's owner company, now() without a timestamp", async () => {
    const basic = w.users['basic@demo.local'];
    const at = new Date('2026-03-02T10:00:00Z');
    await insertAutomaticChangelog(job, w.ds, [row('auto1', s.farm, basic, at), row('auto2', s.farm, null)]);
    const [{ role_cuid }] = await w.ds.query<{ role_cuid: string }[]>(`SELECT role_cuid FROM company_membership WHERE user_cuid = $1 AND company_cuid = $2`, [
      basic,
      w.demo,
    ]);
    const rows = await entries(s.farm);
    expect(rows.map((r) => [r.log_cuid, r.kind, r.ref, r.role_cuid])).toEqual([
      ['auto1', 'COMMAND', 'cmd-1', role_cuid],
      ['auto2', 'COMMAND', 'cmd-1', null],
    ]);
    expect(rows[0].timestamp).toEqual(at);
    expect(Math.abs(new Date(rows[1].timestamp).getTime() - Date.now())).toBeLessThan(60_000);
    await insertAutomaticChangelog(job, w.ds, []);
  });

  it("an entry of the demo company's system never lands on, or changes, another company's system", async () => {
    const [{ n: before }] = await w.ds.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM system_changelog WHERE system_cuid = $1`, [s.clinic]);
    await insertAutomaticChangelog(job, w.ds, [row('auto3', s.farm, w.users['other@demo.local'])]);
    expect((await w.ds.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM system_changelog WHERE system_cuid = $1`, [s.clinic]))[0].n).toBe(before);
    // The other company's user has no membership in the demo company: their own role is recorded.
    const [{ role_cuid }] = await w.ds.query<{ role_cuid: string }[]>(`SELECT role_cuid FROM company_membership WHERE user_cuid = $1`, [
      w.users['other@demo.local'],
    ]);
    expect((await entries(s.farm)).find((r) => r.log_cuid === 'auto3')?.role_cuid).toBe(role_cuid);
  });
});
