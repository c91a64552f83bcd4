import { newCuid } from '../../server/src/common/ids';
import { LIVE_FAN_OUT, LiveEventsRepository } from '../../server/src/alerts/portal/live-events.repository';
import { PortalNotificationsRepository } from '../../server/src/alerts/portal/portal-notifications.repository';
import { DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { systemByName } from '../factories/alert-fixtures';
import { mediumWorld, type MediumWorld } from './world';

/** portal-notifications.repository.ts and live-events.repository.ts on a real database. */
describe('portal notification repositories (database)', () => {
  let w: MediumWorld;
  let repo: PortalNotificationsRepository;
  let farm: string;
  let workshop: string;
  const notes: Record<string, string> = {};

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new PortalNotificationsRepository(w.ds);
    farm = (await systemByName(w.ds, DEMO_SYSTEMS.farm)).system_cuid;
    workshop = (await systemByName(w.ds, DEMO_SYSTEMS.workshop)).system_cuid;
    const expert = await w.actor('expert@demo.local');
    for (const [name, system_cuid] of [
      ['farm', farm],
      ['workshop', workshop],
    ] as const) {
      await repo.transaction(expert, async (tx) => {
        const role_cuid = await repo.authorRole(expert, tx, w.demo);
        const entry = await repo.insertChangelog(expert, tx, { log_cuid: newCuid(), title: `${name} entry`, message: null, system_cuid, role_cuid });
        expect(entry).toMatchObject({ title: `${name} entry`, user_cuid: expert.user_cuid, system_cuid, role_cuid: expect.any(String) });
        notes[name] = newCuid();
        const sent = await repo.insertChangelogNotification(expert, tx, { notification_cuid: notes[name], message: name, system_cuid, args: { title: name } });
        expect(sent).toBeInstanceOf(Date);
      });
    }
  });
  afterAll(() => w?.db.close());

  it("recent and acknowledge: notifications of systems the caller sees; another company's unshared system never", async () => {
    const other = await w.actor('other@demo.local');
    expect((await repo.recent(other, 10)).map((n) => n.notification_cuid)).toEqual([notes.workshop]);
    expect(await repo.acknowledge(other, notes.farm)).toBe(false);
    expect(await repo.acknowledge(other, notes.workshop)).toBe(true);
    expect((await repo.recent(other, 10))[0]).toMatchObject({ read: true, type: 'CHANGELOG', severity_level: 'INFO' });
    const basic = await w.actor('basic@demo.local');
    expect((await repo.recent(basic, 10)).map((n) => [n.notification_cuid, n.read])).toEqual(
      expect.arrayContaining([
        [notes.farm, false],
        [notes.workshop, false],
      ]),
    );
  });

  it('changelog recipients: members of companies that see the system, minus the author and who muted it', async () => {
    const expert = await w.actor('expert@demo.local');
    const other = await w.actor('other@demo.local');
    const onFarm = await repo.transaction(expert, (tx) => repo.changelogRecipients(expert, tx, farm));
    expect(onFarm).toContain(w.users['basic@demo.local']);
    expect(onFarm).not.toContain(w.users['expert@demo.local']);
    expect(onFarm).not.toContain(w.users['other@demo.local']);
    expect(await repo.transaction(expert, (tx) => repo.changelogRecipients(expert, tx, workshop))).toContain(w.users['other@demo.local']);
    await repo.mute(other, newCuid(), workshop, 'CHANGELOG');
    await repo.mute(other, newCuid(), workshop, 'CHANGELOG'); // twice: still one
    expect(await repo.transaction(expert, (tx) => repo.changelogRecipients(expert, tx, workshop))).not.toContain(w.users['other@demo.local']);
    await repo.unmute(other, workshop, 'CHANGELOG');
    expect(await repo.transaction(expert, (tx) => repo.changelogRecipients(expert, tx, workshop))).toContain(w.users['other@demo.local']);
  });

  it('live events: a stored body is read back by id until swept', async () => {
    const live = new LiveEventsRepository(w.ds);
    await live.store(LIVE_FAN_OUT, 'ev1', '{"kind":"toast"}');
    expect(await live.load(LIVE_FAN_OUT, 'ev1')).toBe('{"kind":"toast"}');
    expect(await live.load(LIVE_FAN_OUT, 'nope')).toBeUndefined();
    await live.notify(LIVE_FAN_OUT, 'portal_live_test', '{}');
    await live.sweep(LIVE_FAN_OUT, 60);
    expect(await live.load(LIVE_FAN_OUT, 'ev1')).toBe('{"kind":"toast"}');
    await w.ds.query(`UPDATE live_event SET created_at = now() - interval '2 hours' WHERE event_id = 'ev1'`);
    await live.sweep(LIVE_FAN_OUT, 60);
    expect(await live.load(LIVE_FAN_OUT, 'ev1')).toBeUndefined();
  });
});
