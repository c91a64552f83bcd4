import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../../config/config';
import type { OutboxDeliveriesRepository } from './outbox-deliveries.repository';
import type { OutboxEventsRepository } from './outbox-events.repository';
import { outboxJob } from './outbox-job';
import type { DeliveryAnswer, DeliverySummary, TriggerRow } from './outbox-rules';
import { type DeliveryWork, OutboxWorkerService } from './outbox-worker.service';

/** OutboxWorkerService over in-memory stand-ins of the outbox repositories (no database). */
const CONFIG = {
  ALERTS_DELIVERY_MAX_ATTEMPTS: 2,
  ALERTS_DELIVERY_MAX_DEFERRALS: 5,
  ALERTS_DELIVERY_BACKOFF_BASE_MS: 100,
  ALERTS_DELIVERY_BACKOFF_MAX_MS: 1000,
  ALERTS_DELIVERY_LEASE_SECONDS: 60,
  ALERTS_GROUP_WINDOW_MS: 2000,
  ALERTS_LIVE_WINDOW_SECONDS: 900,
  PUBLIC_URL: 'https://portal.example/',
} as unknown as AppConfig;
const TRIGGER: TriggerRow = {
  trigger_cuid: 't1',
  name: 'Hot',
  message: 'Too hot: {{value}}',
  release_message: null,
  severity_level: 'CRITICAL',
  system_cuid: 's1',
  system_name: 'Farm',
  timezone: 'UTC',
};
const tx = {} as EntityManager;
const job = outboxJob('test');

function world(opts: { held?: boolean; status?: string; summary?: DeliverySummary; recipients?: string[] } = {}) {
  const calls: [string, ...unknown[]][] = [];
  const events = {
    transaction: async (_j: unknown, work: (t: EntityManager) => Promise<unknown>) => work(tx),
    insertNotification: async (_j: unknown, _t: unknown, n: unknown) => void calls.push(['insertNotification', n]),
    insertDeliveries: async (_j: unknown, _t: unknown, _e: unknown, _n: string, channels: unknown[]) => void calls.push(['insertDeliveries', channels.length]),
    markMaterialised: async (_j: unknown, _t: unknown, _e: unknown, _n: string, status: string) => void calls.push(['markMaterialised', status]),
    toastRecipients: async () => opts.recipients ?? [],
    lockStatus: async () => opts.status,
    deliverySummary: async () => opts.summary ?? { open: 0, archived: 0, attempts: 1, reasons: null },
    keepOpen: async (_j: unknown, _t: unknown, _e: unknown, _l: number, attempts: number) => void calls.push(['keepOpen', attempts]),
    close: async (_j: unknown, _t: unknown, _e: unknown, status: string, attempts: number, last_error: string | null) =>
      void calls.push(['close', status, attempts, last_error]),
    archive: async (_j: unknown, _t: unknown, _e: unknown, reason: string) => void calls.push(['archive', reason]),
  } as unknown as OutboxEventsRepository;
  const deliveries = {
    markSent: async () => void calls.push(['markSent']),
    answerIfHeld: async (_j: unknown, _t: unknown, _d: unknown, answer: DeliveryAnswer) => {
      calls.push(['answer', answer]);
      return opts.held ?? true;
    },
  } as unknown as OutboxDeliveriesRepository;
  return { sut: new OutboxWorkerService(CONFIG, events, deliveries), calls };
}

const work = (attempts: number): DeliveryWork =>
  ({ event_cuid: 'e1', channel_cuid: 'c1', claim_token: 'tok', attempts, deferrals: 0, notification_cuid: 'n1' }) as unknown as DeliveryWork;

describe('OutboxWorkerService (in memory)', () => {
  it('a failed send is retried with back-off (not finished), the last attempt ARCHIVES it (finished)', async () => {
    const { sut, calls } = world();
    expect(await sut.record(job, tx, work(0), { kind: 'fail', reason: 'down' })).toBe(false);
    expect(await sut.record(job, tx, work(1), { kind: 'fail', reason: 'down' })).toBe(true);
    expect(calls).toEqual([
      ['answer', { status: 'PENDING', attempts: 1, last_error: 'down', waitMs: 100 }],
      ['answer', { status: 'ARCHIVED', attempts: 2, last_error: 'Gave up after 2 attempts: down' }],
    ]);
  });

  it('an answer for a delivery this claim no longer holds finishes nothing; a send that went out is SENT regardless', async () => {
    const { sut, calls } = world({ held: false });
    expect(await sut.record(job, tx, work(1), { kind: 'archive', reason: 'gone' })).toBe(false);
    expect(await sut.record(job, tx, work(0), { kind: 'sent' })).toBe(true);
    expect(calls.map((c) => c[0])).toEqual(['answer', 'markSent']);
  });

  it('an event another instance closed (no longer SENDING) is left alone; an open one keeps its lease; a done one closes', async () => {
    const gone = world({ status: 'SENT' });
    await gone.sut.closeEventIfDone(job, tx, { event_cuid: 'e1', timestamp: new Date() }, false);
    expect(gone.calls).toEqual([]);
    const open = world({ status: 'SENDING', summary: { open: 1, archived: 0, attempts: 2, reasons: null } });
    await open.sut.closeEventIfDone(job, tx, { event_cuid: 'e1', timestamp: new Date() }, false);
    expect(open.calls).toEqual([['keepOpen', 2]]);
    const done = world({ summary: { open: 0, archived: 1, attempts: 3, reasons: 'c1: bad' } });
    await done.sut.closeEventIfDone(job, tx, { event_cuid: 'e1', timestamp: new Date() }, true);
    expect(done.calls).toEqual([['close', 'ARCHIVED', 3, 'c1: bad']]);
  });

  it('an event without channels is SENT at once; a recent one toasts its recipients, an old one nobody', async () => {
    const recent = world({ recipients: ['u1'] });
    const now = new Date();
    const made = await recent.sut.materialise(
      job,
      tx,
      { event_cuid: 'e1', timestamp: now, value: { value: 42 }, trigger_cuid: 't1', notification_cuid: null, status: 'PENDING' },
      TRIGGER,
      [],
    );
    expect(recent.calls.map((c) => c[0])).toEqual(['insertNotification', 'insertDeliveries', 'markMaterialised']);
    expect(recent.calls[2]).toEqual(['markMaterialised', 'SENT']);
    expect(made).toMatchObject({
      deliveries: 0,
      toast: { users: ['u1'], toast: { title: 'Farm: Hot', severity: 'CRITICAL', onClickTarget: '/systems/s1/alarms' } },
    });

    const old = world({ recipients: ['u1'] });
    const stale = await old.sut.materialise(
      job,
      tx,
      { event_cuid: 'e2', timestamp: new Date(Date.now() - 3_600_000), value: null, trigger_cuid: 't1', notification_cuid: null, status: 'PENDING' },
      TRIGGER,
      [{ channel_cuid: 'c1', company_cuid: 'co1' }],
    );
    expect(stale).toEqual({ deliveries: 1 });
    expect(old.calls[2]).toEqual(['markMaterialised', 'SENDING']);
  });
});
