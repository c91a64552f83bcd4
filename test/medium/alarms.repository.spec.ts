import { SqlAlarmInboxRepository } from '../../server/src/alerts/alarms/alarm-inbox.repository';
import { SqlAlarmsRepository } from '../../server/src/alerts/alarms/alarms.repository';
import { ZHistoryInput } from '../../server/src/alerts/alarms/alarms.schema';
import type { Actor } from '../../shared/access/policy';
import { newCuid } from '../../server/src/common/ids';
import { addEvent, addTrigger, eventValue, setStatus } from '../alerts/alarm-fixtures';
import { alertWorld, type AlertWorld } from './alert-fixtures';
import { mediumWorld, type MediumWorld } from './world';

/** alarms.repository.ts and alarm-inbox.repository.ts on a real database: the rows of visible systems, the caller's own marks. */
describe('alarms and inbox repositories (database)', () => {
  let w: MediumWorld;
  let a: AlertWorld;
  let alarms: SqlAlarmsRepository;
  let inbox: SqlAlarmInboxRepository;
  let installer: Actor;
  let basic: Actor;
  let other: Actor;
  /** Demo farm (demo company, not shared) and "Other private" (other company, not shared). */
  const farm = { trigger: '', notification: '', event: '', portal: '' };
  const priv = { trigger: '', notification: '', event: '', portal: '' };
  const T0 = new Date('2026-11-20T10:00:00Z');
  const history = (filter: Record<string, unknown> = {}) => ZHistoryInput.parse({ filter, pagination: { page: 1, perPage: 50 } });

  beforeAll(async () => {
    w = await mediumWorld();
    a = await alertWorld(w);
    alarms = new SqlAlarmsRepository(w.ds);
    inbox = new SqlAlarmInboxRepository(w.ds);
    installer = await w.actor('installer@demo.local');
    basic = await w.actor('basic@demo.local');
    other = await w.actor('other@demo.local');
    for (const [side, system_cuid, name] of [
      [farm, a.farm, 'Farm low'],
      [priv, a.privateSystem, 'Private low'],
    ] as const) {
      side.trigger = await addTrigger(w.ds, system_cuid, { name });
      await setStatus(w.ds, side.trigger, 'TRIGGERED', T0);
      const ids = await addEvent(w.ds, side.trigger, eventValue('TRIGGERED', T0, 12, { name, system_cuid }));
      side.event = ids.event_cuid;
      side.notification = ids.notification_cuid!;
      side.portal = newCuid();
      await w.ds.query(`INSERT INTO portal_notification (notification_cuid, message, system_cuid, type) VALUES ($1, 'Changed', $2, 'CHANGELOG')`, [
        side.portal,
        system_cuid,
      ]);
    }
  });
  afterAll(() => w?.db.close());

  it("active and history: the caller's visible systems only; another company's alarms never", async () => {
    const mine = (await alarms.active(installer)).map((r) => r.trigger_cuid);
    expect(mine).toContain(farm.trigger);
    expect(mine).not.toContain(priv.trigger);
    const theirs = (await alarms.active(other)).map((r) => r.trigger_cuid);
    expect(theirs).toContain(priv.trigger);
    expect(theirs).not.toContain(farm.trigger);
    expect(await alarms.active(other, a.farm)).toEqual([]);
    const row = (await alarms.active(installer, a.farm)).find((r) => r.trigger_cuid === farm.trigger)!;
    expect(row).toMatchObject({
      trigger_name: 'Farm low',
      notification_cuid: farm.notification,
      muted: false,
      acknowledged: false,
      template: expect.any(String),
    });

    const h = await alarms.history(installer, history());
    expect(h.rows.map((r) => r.event_cuid)).toContain(farm.event);
    expect(h.rows.map((r) => r.event_cuid)).not.toContain(priv.event);
    expect(h.total).toBe(h.rows.length);
    expect(await alarms.history(installer, history({ trigger_cuid: priv.trigger }))).toEqual({ rows: [], total: 0 });
    expect((await alarms.history(other, history({ system_cuid: a.privateSystem }))).rows.map((r) => r.event_cuid)).toEqual([priv.event]);
  });

  it("visibility checks answer false for another company's system, trigger and notification", async () => {
    expect(await alarms.systemVisible(installer, a.farm)).toBe(true);
    expect(await alarms.systemVisible(installer, a.privateSystem)).toBe(false);
    expect(await alarms.triggerVisible(other, farm.trigger)).toBe(false);
    expect(await alarms.triggerVisible(other, priv.trigger)).toBe(true);
    expect(await alarms.notificationVisible(other, farm.notification)).toBe(false);
    expect(await alarms.notificationVisible(basic, farm.notification)).toBe(true);
    expect(await alarms.triggerStatuses(other, [farm.trigger, priv.trigger])).toEqual([
      expect.objectContaining({ trigger_cuid: priv.trigger, trigger_state: 'TRIGGERED' }),
    ]);
  });

  it("acknowledgements and mutes are the caller's own rows", async () => {
    const first = await alarms.transaction(async (rows) => {
      await rows.lockAcknowledgement(basic, farm.notification);
      expect(await rows.acknowledgedAt(basic, farm.notification)).toBeUndefined();
      return rows.insertAcknowledgement(basic, farm.notification);
    });
    expect(await alarms.acknowledgedAt(basic, farm.notification)).toEqual(first);
    expect(await alarms.acknowledgedAt(installer, farm.notification)).toBeUndefined();
    expect((await alarms.active(basic, a.farm)).find((r) => r.trigger_cuid === farm.trigger)?.acknowledged).toBe(true);
    expect((await alarms.active(installer, a.farm)).find((r) => r.trigger_cuid === farm.trigger)?.acknowledged).toBe(false);

    await alarms.mute(basic, farm.trigger, null);
    await alarms.mute(basic, farm.trigger, new Date(Date.now() + 3_600_000));
    expect(await w.ds.query(`SELECT user_cuid FROM notification_user_blacklist WHERE trigger_cuid = $1`, [farm.trigger])).toEqual([
      { user_cuid: basic.user_cuid },
    ]);
    expect((await alarms.active(basic, a.farm)).find((r) => r.trigger_cuid === farm.trigger)?.muted).toBe(true);
    expect((await alarms.active(installer, a.farm)).find((r) => r.trigger_cuid === farm.trigger)?.muted).toBe(false);
    await alarms.unmute(installer, farm.trigger);
    expect((await alarms.active(basic, a.farm)).find((r) => r.trigger_cuid === farm.trigger)?.muted).toBe(true);
    await alarms.unmute(basic, farm.trigger);
    expect((await alarms.active(basic, a.farm)).find((r) => r.trigger_cuid === farm.trigger)?.muted).toBe(false);
  });

  it("inbox: portal and alarm notifications of visible systems, never another company's; read marks are the caller's", async () => {
    const keys = (rows: { kind: string; notification_cuid: string }[]) => rows.map((r) => `${r.kind}:${r.notification_cuid}`);
    const page = await inbox.page(installer, false, 1, 100);
    expect(keys(page)).toEqual(expect.arrayContaining([`alarm:${farm.notification}`, `portal:${farm.portal}`]));
    expect(keys(page)).not.toEqual(expect.arrayContaining([`alarm:${priv.notification}`]));
    expect(keys(page)).not.toEqual(expect.arrayContaining([`portal:${priv.portal}`]));
    expect(await inbox.count(installer, false)).toBe(page.length);
    expect(keys(await inbox.page(other, false, 1, 100))).not.toEqual(expect.arrayContaining([`alarm:${farm.notification}`]));

    const wanted = [`alarm:${farm.notification}`, `alarm:${priv.notification}`];
    expect(keys(await inbox.items(installer, false, wanted))).toEqual([`alarm:${farm.notification}`]);
    const unreadBefore = await inbox.unreadCounts(installer, 1000);
    await inbox.transaction(async (rows) => {
      await rows.lockReadMarks(installer);
      await rows.insertReadMarks(installer, 'alarm', [farm.notification]);
      await rows.insertReadMarks(installer, 'portal', []);
    });
    expect(await inbox.unreadCounts(installer, 1000)).toEqual({ portal: unreadBefore.portal, alarms: unreadBefore.alarms - 1 });
    expect((await inbox.items(installer, false, [`alarm:${farm.notification}`]))[0].read).toBe(true);
    // Another user's marks are theirs (basic acknowledged it above: an acknowledgement is a read mark); a colleague's stay unread.
    expect((await inbox.items(basic, false, [`alarm:${farm.notification}`]))[0].read).toBe(true);
    expect((await inbox.items(await w.actor('expert@demo.local'), false, [`alarm:${farm.notification}`]))[0].read).toBe(false);
    const capped = await inbox.unreadCounts(installer, 1);
    expect(capped.portal + capped.alarms).toBe(1);
  });
});
