import type { Actor } from '../../../../shared/access/policy';
import { actor, codeOf } from '../../../../test/factories/rules';
import type { AlarmInboxRepository, InboxKind, InboxRow } from './alarm-inbox.repository';
import type { ActiveAlarmRow, AlarmsRepository } from './alarms.repository';
import { UNREAD_COUNT_CAP } from './alarms.schema';
import { AlarmsService, messageOf } from './alarms.service';

/** The rules of AlarmsService over in-memory stand-ins of its repositories (no database). */

interface Memory {
  /** system_cuid → company_cuid */
  systems: Map<string, string>;
  /** trigger_cuid → system_cuid */
  triggers: Map<string, string>;
  /** notification_cuid → trigger_cuid */
  notifications: Map<string, string>;
  acks: { user_cuid: string; notification_cuid: string; at: Date }[];
  mutes: Map<string, Date | null>;
  inbox: (InboxRow & { company: string })[];
  reads: Set<string>;
}

const sees = (a: Actor, company: string | undefined) => !!company && a.memberships.some((m) => m.company_cuid === company);

function memory(m: Memory): { alarms: AlarmsRepository; inbox: AlarmInboxRepository } {
  const triggerCompany = (t: string) => m.systems.get(m.triggers.get(t) ?? '');
  const alarms: AlarmsRepository = {
    async transaction(work) {
      const acks = [...m.acks];
      try {
        return await work(alarms, { query: async () => [] });
      } catch (e) {
        m.acks = acks;
        throw e;
      }
    },
    async active(a, system_cuid) {
      return [...m.triggers]
        .filter(([, s]) => sees(a, m.systems.get(s)) && (!system_cuid || s === system_cuid))
        .map(
          ([trigger_cuid, system_cuid]) =>
            ({ trigger_cuid, system_cuid, template: 'Low {value}', event_value: null, delivered: null }) as unknown as ActiveAlarmRow,
        );
    },
    history: async () => ({ rows: [], total: 0 }),
    notificationVisible: async (a, n) => sees(a, triggerCompany(m.notifications.get(n) ?? '')),
    lockAcknowledgement: async () => undefined,
    acknowledgedAt: async (a, n) => m.acks.find((x) => x.user_cuid === a.user_cuid && x.notification_cuid === n)?.at,
    async insertAcknowledgement(a, n) {
      const at = new Date(1000 + m.acks.length);
      m.acks.push({ user_cuid: a.user_cuid, notification_cuid: n, at });
      return at;
    },
    async mute(a, t, until) {
      m.mutes.set(`${a.user_cuid}:${t}`, until);
    },
    async unmute(a, t) {
      m.mutes.delete(`${a.user_cuid}:${t}`);
    },
    // Seen at level ≤ 2 only (eventTriggers.view), as the policy's actorFor narrows it.
    triggerStatuses: async (a, ids) =>
      ids.filter((t) => sees(a, triggerCompany(t))).map((trigger_cuid) => ({ trigger_cuid, trigger_state: 'RELEASED' }) as never),
    systemVisible: async (a, s) => sees(a, m.systems.get(s)),
    triggerVisible: async (a, t) => sees(a, triggerCompany(t)),
  };
  const key = (a: Actor, kind: InboxKind, n: string) => `${a.user_cuid}:${kind}:${n}`;
  const visible = (a: Actor, unreadOnly: boolean) =>
    m.inbox.filter((r) => sees(a, r.company) && (!unreadOnly || !m.reads.has(key(a, r.kind, r.notification_cuid))));
  const inbox: AlarmInboxRepository = {
    async transaction(work) {
      const reads = new Set(m.reads);
      try {
        return await work(inbox, { query: async () => [] });
      } catch (e) {
        m.reads = reads;
        throw e;
      }
    },
    count: async (a, unreadOnly) => visible(a, unreadOnly).length,
    page: async (a, unreadOnly, page, perPage) => visible(a, unreadOnly).slice((page - 1) * perPage, page * perPage),
    unreadCounts: async (a, cap) => {
      const rows = visible(a, true).slice(0, cap);
      return { portal: rows.filter((r) => r.kind === 'portal').length, alarms: rows.filter((r) => r.kind === 'alarm').length };
    },
    lockReadMarks: async () => undefined,
    items: async (a, unreadOnly, keys) =>
      visible(a, unreadOnly)
        .filter((r) => !keys || keys.includes(`${r.kind}:${r.notification_cuid}`))
        .map((r) => ({ kind: r.kind, notification_cuid: r.notification_cuid, read: m.reads.has(key(a, r.kind, r.notification_cuid)) })),
    async insertReadMarks(a, kind, ids) {
      for (const n of ids) m.reads.add(key(a, kind, n));
    },
  };
  return { alarms, inbox };
}

describe('AlarmsService', () => {
  let m: Memory;
  let sut: AlarmsService;
  const alice = actor('alice', 'A', 2);
  const bob = actor('bob', 'B', 2);
  const row = (kind: InboxKind, notification_cuid: string, company: string, system_cuid: string) =>
    ({
      kind,
      notification_cuid,
      company,
      system_cuid,
      message: 'm',
      sent_at: new Date(0),
      severity_level: 'INFO',
      system_name: 's',
      timezone: 'UTC',
      type: null,
      trigger_cuid: null,
      trigger_name: null,
      read: false,
    }) as InboxRow & { company: string };

  beforeEach(() => {
    m = {
      systems: new Map([
        ['sa', 'A'],
        ['sb', 'B'],
      ]),
      triggers: new Map([
        ['ta', 'sa'],
        ['tb', 'sb'],
      ]),
      notifications: new Map([
        ['na', 'ta'],
        ['nb', 'tb'],
      ]),
      acks: [],
      mutes: new Map(),
      inbox: [row('alarm', 'na', 'A', 'sa'), row('portal', 'pa', 'A', 'sa'), row('alarm', 'nb', 'B', 'sb')],
      reads: new Set(),
    };
    const { alarms, inbox } = memory(m);
    sut = new AlarmsService(alarms, inbox);
  });

  it('a foreign system or trigger answers like a missing one, and nothing is written', async () => {
    expect(await codeOf(sut.active(alice, 'sb'))).toBe('NOT_FOUND: System not found');
    expect(
      await codeOf(
        sut.history(alice, { filter: { trigger_cuid: 'tb' }, pagination: { page: 1, perPage: 5 }, sort: { field: 'timestamp', order: 'DESC' } } as never),
      ),
    ).toBe('NOT_FOUND: Trigger not found');
    expect(await codeOf(sut.mute(alice, 'tb', null))).toBe('NOT_FOUND: Trigger not found');
    expect(await codeOf(sut.acknowledge(alice, 'nb'))).toBe('NOT_FOUND: Notification not found');
    expect(m.mutes.size + m.acks.length).toBe(0);
    expect((await sut.active(alice)).map((r) => [r.trigger_cuid, r.message])).toEqual([['ta', 'Low {value}']]);
  });

  it('acknowledge writes once per user and notification and answers the first time', async () => {
    const first = await sut.acknowledge(alice, 'na');
    expect(await sut.acknowledge(alice, 'na')).toEqual(first);
    expect(m.acks).toHaveLength(1);
  });

  it('markRead: any item the caller cannot see is NOT_FOUND and nothing is marked; otherwise the unread ones are marked once', async () => {
    expect(
      await codeOf(
        sut.markRead(alice, {
          items: [
            { kind: 'alarm', notification_cuid: 'na' },
            { kind: 'alarm', notification_cuid: 'nb' },
          ],
        }),
      ),
    ).toBe('NOT_FOUND: Notification not found');
    expect(m.reads.size).toBe(0);
    expect(
      await sut.markRead(alice, {
        items: [
          { kind: 'alarm', notification_cuid: 'na' },
          { kind: 'alarm', notification_cuid: 'na' },
        ],
      }),
    ).toEqual({ marked: 1 });
    expect(await sut.markRead(alice, { all: true })).toEqual({ marked: 1 });
    expect(await sut.markRead(alice, { all: true })).toEqual({ marked: 0 });
    expect((await sut.inboxList(bob, { pagination: { page: 1, perPage: 10 }, unreadOnly: true })).data.map((i) => [i.id, i.target])).toEqual([
      ['alarm:nb', '/systems/sb/alarms'],
    ]);
  });

  it('unreadCount is capped', async () => {
    m.inbox = Array.from({ length: UNREAD_COUNT_CAP + 5 }, (_, i) => row('portal', `p${i}`, 'A', 'sa'));
    expect(await sut.unreadCount(alice)).toEqual({ portal: UNREAD_COUNT_CAP, alarms: 0, total: UNREAD_COUNT_CAP, capped: true });
  });

  it('triggerStatus: a trigger seen but not at the level needed is FORBIDDEN, a foreign one NOT_FOUND', async () => {
    const viewer = actor('vic', 'A', 3);
    expect(await codeOf(sut.triggerStatus(alice, 'ta'))).toBe('OK');
    expect(await codeOf(sut.triggerStatus(alice, 'tb'))).toBe('NOT_FOUND: Trigger not found');
    // actorFor drops the memberships below eventTriggers.view's level: seen through A, refused.
    expect(await codeOf(sut.triggerStatus(viewer, 'ta'))).toMatch(/^FORBIDDEN/);
  });

  it('messageOf: the delivered text, else the template filled with the event, else the template', () => {
    const value = {
      state: 'TRIGGERED',
      value: 12,
      threshold: 20,
      parameter: 'SoC',
      unit: '%',
      device: 'D',
      system: 'S',
      system_cuid: 's',
      timezone: 'UTC',
      time: new Date(0).toISOString(),
    };
    expect(messageOf('Sent', 'T {value}', value)).toBe('Sent');
    expect(messageOf(null, 'Low {value} {unit}', value)).toBe('Low 12 %');
    expect(messageOf(null, 'T {value}', { broken: true })).toBe('T {value}');
    expect(messageOf(null, null, value)).toBe('');
  });
});
