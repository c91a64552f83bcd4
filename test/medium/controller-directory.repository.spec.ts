import { systemJob } from '../../server/src/common/system-job';
import { ControllerDirectoryRepository } from '../../server/src/telemetry/controller-directory.repository';
import { controlWorld, type ControlWorld } from './control-world';
import { mediumWorld, type MediumWorld } from './world';

/** controller-directory.repository.ts on a real database: what a controller's messages may name, within its own company. */
describe('controller directory repository (database)', () => {
  let w: MediumWorld;
  let c: ControlWorld;
  let repo: ControllerDirectoryRepository;
  const job = systemJob('medium');

  beforeAll(async () => {
    w = await mediumWorld();
    c = await controlWorld(w);
    repo = new ControllerDirectoryRepository(w.ds);
  });
  afterAll(() => w?.db.close());

  it('controllerRows: the controller, its entities and their parameters; empty for an unknown controller', async () => {
    const rows = await repo.controllerRows(job, c.demoController);
    expect(rows.length).toBeGreaterThan(1);
    expect(new Set(rows.map((r) => r.company_cuid))).toEqual(new Set([w.demo]));
    expect(rows.map((r) => r.entity_cuid)).toContain(c.demoDevice);
    expect(rows.map((r) => r.entity_cuid)).not.toContain(c.otherDevice);
    expect(rows.find((r) => r.entity_cuid === c.demoDevice)).toMatchObject({ parameter_id: expect.any(String), parameter_type: expect.any(String) });
    expect(await repo.controllerRows(job, 'nope')).toEqual([]);
  });

  it('parameterIds lists the catalogue', async () => {
    expect((await repo.parameterIds(job)).length).toBeGreaterThan(0);
  });

  it("sameCompanyElsewhere answers only entities of the given company, never company B's", async () => {
    expect(await repo.sameCompanyElsewhere(job, w.demo, [c.demoDevice, c.otherDevice])).toEqual([
      { entity_cuid: c.demoDevice, controller_id: c.demoController },
    ]);
    expect(await repo.sameCompanyElsewhere(job, w.other, [c.demoDevice])).toEqual([]);
    expect(await repo.sameCompanyElsewhere(job, w.demo, [])).toEqual([]);
  });
});
