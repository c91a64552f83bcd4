import { systemJob } from '../../server/src/common/system-job';
import { CommandAcksRepository } from '../../server/src/control/commands/command-acks.repository';
import { CommandQueueRepository } from '../../server/src/control/commands/command-queue.repository';
import { CommandsRepository } from '../../server/src/control/commands/commands.repository';
import { controlWorld, type ControlWorld } from './control-world';
import { mediumWorld, type MediumWorld } from './world';

/** command-queue.repository.ts and command-acks.repository.ts on a real database: claims, sweeps, answers, and whose rows they touch. */
describe('command queue and acknowledgement repositories (database)', () => {
  let w: MediumWorld;
  let c: ControlWorld;
  let commands: CommandsRepository;
  let queue: CommandQueueRepository;
  let acks: CommandAcksRepository;
  const job = systemJob('medium');

  beforeAll(async () => {
    w = await mediumWorld();
    c = await controlWorld(w);
    commands = new CommandsRepository(w.ds);
    queue = new CommandQueueRepository(w.ds);
    acks = new CommandAcksRepository(w.ds);
  });
  afterAll(() => w?.db.close());

  const status = async (id: string) =>
    (await w.ds.query<{ s: string }[]>(`SELECT status::text AS s FROM controller_command WHERE command_id = $1`, [id]))[0]?.s;

  async function store(id: string, controller: 'demo' | 'other', notAfterMs = 60_000): Promise<void> {
    const actor = await w.actor(controller === 'demo' ? 'installer@demo.local' : 'other@demo.local');
    await commands.transaction((tx) =>
      commands.insert(actor, tx, {
        command_id: id,
        controller_id: controller === 'demo' ? c.demoController : c.otherController,
        company_cuid: controller === 'demo' ? w.demo : w.other,
        system_cuid: controller === 'demo' ? c.farm : c.otherSystem,
        kind: 'restart',
        payload: {},
        dangerous: false,
        not_after: new Date(Date.now() + notAfterMs),
      }),
    );
  }

  it("claim marks the named controllers' PENDING commands SENT (again: SENT ones too); release hands them back", async () => {
    await store('q-a1', 'demo');
    await store('q-b1', 'other');
    const claimed = await queue.claim(job, [c.demoController], false, 10);
    expect(claimed.map((r) => r.command_id)).toEqual(['q-a1']);
    expect(await status('q-b1')).toBe('PENDING');
    expect(await queue.claim(job, [c.demoController], false, 10)).toEqual([]);
    expect((await queue.claim(job, [c.demoController], true, 10)).map((r) => r.command_id)).toEqual(['q-a1']);
    await queue.release(job, ['q-a1']);
    expect(await status('q-a1')).toBe('PENDING');
    expect(await queue.waitingControllers(job, 10)).toEqual(expect.arrayContaining([c.demoController, c.otherController]));
  });

  it("takeOwn: a controller takes only its own commands, never another company's controller's", async () => {
    const mine = await queue.takeOwn({ controller_id: c.otherController }, 10);
    expect(mine.map((r) => r.command_id)).toEqual(['q-b1']);
    expect(await status('q-a1')).toBe('PENDING');
  });

  it("online reads the presence machine's state", async () => {
    expect(await queue.online(job, c.demoController)).toBe(true);
    expect(await queue.online(job, c.otherController)).toBe(false);
  });

  it("expireDue and timeOutSent end what is due in the job's transaction; controllerInfo names the controllers", async () => {
    await store('q-exp', 'demo', 50);
    await new Promise((r) => setTimeout(r, 80));
    const ended = await queue.transaction(async (tx) => [...(await queue.expireDue(job, tx, 10)), ...(await queue.timeOutSent(job, tx, 0, 'No answer', 10))]);
    expect(ended.map((r) => [r.command_id, r.status]).sort()).toEqual([
      ['q-b1', 'TIMEOUT'],
      ['q-exp', 'EXPIRED'],
    ]);
    const info = await queue.controllerInfo(job, [c.demoController, c.otherController]);
    expect(info.map((i) => i.name).sort()).toEqual(['Demo Farm Cerbo GX', 'Other controller']);
  });

  it("acks: a command is locked only with the controller that owns it; answers and reported configurations reach only that controller's rows", async () => {
    await store('q-a2', 'demo');
    const locked = await acks.transaction((tx) =>
      acks.lockCommands(job, tx, [
        { id: 'q-a2', controller_id: c.demoController },
        // Company B's controller answering the demo company's command: not matched.
        { id: 'q-a1', controller_id: c.otherController },
      ]),
    );
    expect(locked.map((r) => r.command_id)).toEqual(['q-a2']);

    await acks.transaction(async (tx) => {
      await acks.recordAnswers(job, tx, [{ id: 'q-a2', status: 'SUCCESS', message: 'ok', applied: JSON.stringify({ controller: { x: 1 } }) }]);
      await acks.writeReportedControllers(job, tx, new Map([[c.demoController, JSON.stringify({ x: 1 })]]));
      // Company B's controller reporting the demo device: ignored.
      await acks.writeReportedDevices(
        job,
        tx,
        new Map([
          [c.demoDevice, { controller_id: c.otherController, cfg: JSON.stringify({ stolen: true }) }],
          [c.otherDevice, { controller_id: c.otherController, cfg: JSON.stringify({ y: 2 }) }],
        ]),
      );
    });
    expect(await status('q-a2')).toBe('SUCCESS');
    expect(await status('q-a1')).toBe('PENDING');
    const reported = await w.ds.query<{ entity_cuid: string; reported_config: unknown }[]>(
      `SELECT entity_cuid, reported_config FROM entity WHERE entity_cuid = ANY($1::varchar[]) ORDER BY entity_cuid`,
      [[c.demoDevice, c.otherDevice]],
    );
    expect(Object.fromEntries(reported.map((r) => [r.entity_cuid, r.reported_config]))).toEqual({ [c.demoDevice]: null, [c.otherDevice]: { y: 2 } });
    const [ctrl] = await w.ds.query<{ reported_config: unknown }[]>(`SELECT reported_config FROM controller WHERE controller_id = $1`, [c.demoController]);
    expect(ctrl.reported_config).toEqual({ x: 1 });
  });
});
