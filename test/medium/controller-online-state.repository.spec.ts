import { systemJob } from '../../server/src/common/system-job';
import { ControllerOnlineStateRepository } from '../../server/src/telemetry/controller-online-state.repository';
import { controlWorld, type ControlWorld } from './control-world';
import { mediumWorld, type MediumWorld } from './world';

/** controller-online-state.repository.ts on a real database: presence rows, transitions, sweeps; one controller's step never touches another's rows. */
describe('controller online state repository (database)', () => {
  let w: MediumWorld;
  let c: ControlWorld;
  let repo: ControllerOnlineStateRepository;
  const job = systemJob('medium');

  beforeAll(async () => {
    w = await mediumWorld();
    c = await controlWorld(w);
    repo = new ControllerOnlineStateRepository(w.ds);
  });
  afterAll(() => w?.db.close());

  it('lock reads the presence of the named controller only; undefined for an unknown one', async () => {
    const rows = await repo.transaction(async (tx) => [await repo.lock(job, tx, c.demoController, false), await repo.lock(job, tx, 'nope', false)]);
    expect(rows[0]).toMatchObject({ controller_id: c.demoController, online_state: 'ONLINE', last_seen_at: null });
    expect(rows[1]).toBeUndefined();
  });

  it('startGrace gives a stated controller a presence; sweepCandidates lists silent ones', async () => {
    const now = new Date();
    await repo.startGrace(job, now);
    const after = await repo.transaction((tx) => repo.lock(job, tx, c.demoController, true));
    expect(after?.last_seen_at).toEqual(now);
    expect(await repo.sweepCandidates(job, new Date(now.getTime() + 1000))).toEqual([c.demoController]);
    expect(await repo.sweepCandidates(job, new Date(now.getTime() - 1000))).toEqual([]);
  });

  it("store writes the step of one controller (presence, state, history), leaving company B's controller as it was", async () => {
    const at = new Date();
    await repo.transaction(async (tx) => {
      await repo.lock(job, tx, c.otherController, false);
      await repo.store(
        job,
        tx,
        c.otherController,
        { next: { state: 'ONLINE', last_seen_at: at, state_since: at, online_since: at, dropouts: [] }, transition: { state: 'ONLINE', at } },
        'mqtt',
      );
    });
    const other = await repo.transaction((tx) => repo.lock(job, tx, c.otherController, false));
    expect(other).toMatchObject({ online_state: 'ONLINE', last_seen_at: at, dropouts: [] });
    expect(await w.ds.query(`SELECT online_state::text AS s FROM controller_online_state_history WHERE controller_id = $1`, [c.otherController])).toEqual([
      { s: 'ONLINE' },
    ]);
    // The demo controller's rows did not move.
    expect(await w.ds.query(`SELECT 1 FROM controller_online_state_history WHERE controller_id = $1`, [c.demoController])).toEqual([]);
    const demo = await repo.transaction((tx) => repo.lock(job, tx, c.demoController, false));
    expect(demo?.last_seen_at).not.toEqual(at);
  });
});
