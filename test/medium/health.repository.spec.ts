import { systemJob } from '../../server/src/common/system-job';
import { HealthRepository } from '../../server/src/health/health.repository';
import { mediumWorld, type MediumWorld } from './world';
import { demoSystems } from './world-systems';

/** health.repository.ts on a real database: counts only, over every company (the instance's own job). */
describe('health repository (database)', () => {
  let w: MediumWorld;
  let repo: HealthRepository;
  const job = systemJob('test-health');

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new HealthRepository(w.ds);
  });
  afterAll(() => w?.db.close());

  it('ping answers; an empty outbox, no commands and no late timer count zero', async () => {
    await expect(repo.ping(job)).resolves.toBeUndefined();
    expect(await repo.outboxDepth(job)).toEqual({ events: 0, deliveries: 0, oldest: 0 });
    expect(await repo.commandsByStatus(job)).toEqual(new Map());
    expect(await repo.engineTimerLag(job)).toBe(0);
  });

  it("commands are counted per status over every company's controllers; no row of theirs comes out", async () => {
    const s = await demoSystems(w);
    const [{ controller_id }] = await w.ds.query<{ controller_id: string }[]>(`SELECT controller_id FROM controller WHERE system_cuid = $1`, [s.farm]);
    await w.ds.query(
      `INSERT INTO controller_command (command_id, controller_id, company_cuid, system_cuid, kind, status, not_after)
       VALUES ('c1', $1, $2, $3, 'restart', 'PENDING', now() + interval '1 hour'),
              ('c2', $1, $2, $3, 'restart', 'PENDING', now() + interval '1 hour'),
              ('c3', $1, $2, $3, 'restart', 'SUCCESS', now() + interval '1 hour')`,
      [controller_id, w.demo, s.farm],
    );
    expect(await repo.commandsByStatus(job)).toEqual(
      new Map([
        ['PENDING', 2],
        ['SUCCESS', 1],
      ]),
    );
  });
});
