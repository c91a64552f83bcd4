import {
  answerFor,
  backoffMs,
  chunksOf,
  deliveryWakeMs,
  eventClosure,
  eventValue,
  MAX_REASON,
  MAX_RETRY_AFTER_MS,
  outcomeOf,
  templateOf,
  toastTime,
  type TriggerRow,
} from './outbox-rules';

/** The outbox's rules, without a database: retries, waits, grouping, closing an event. */
const LIMITS = {
  ALERTS_DELIVERY_MAX_ATTEMPTS: 3,
  ALERTS_DELIVERY_MAX_DEFERRALS: 2,
  ALERTS_DELIVERY_BACKOFF_BASE_MS: 1000,
  ALERTS_DELIVERY_BACKOFF_MAX_MS: 5000,
};
const TRIGGER: TriggerRow = {
  trigger_cuid: 't1',
  name: 'Hot',
  message: 'Too hot',
  release_message: 'Cool again',
  severity_level: 'WARNING',
  system_cuid: 's1',
  system_name: 'Farm',
  timezone: 'Europe/Paris',
};

describe('outbox rules', () => {
  it('back-off doubles from the base after each failed attempt, up to the maximum', () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffMs(a, LIMITS))).toEqual([1000, 2000, 4000, 5000, 5000]);
    expect(backoffMs(0, LIMITS)).toBe(1000);
  });

  it("a sender's answer: sent, permanent → archive, retry-after → defer (bounded, never negative), anything else → fail", () => {
    expect(outcomeOf({ ok: true })).toEqual({ kind: 'sent' });
    expect(outcomeOf({ ok: false, permanent: true, reason: 'bad address' })).toEqual({ kind: 'archive', reason: 'bad address' });
    expect(outcomeOf({ ok: false, retryAfterMs: 3000, reason: '429' })).toEqual({ kind: 'defer', reason: '429', waitMs: 3000 });
    expect(outcomeOf({ ok: false, retryAfterMs: -5, reason: '429' })).toEqual({ kind: 'defer', reason: '429', waitMs: 0 });
    expect(outcomeOf({ ok: false, retryAfterMs: 10 * MAX_RETRY_AFTER_MS, reason: '429' })).toEqual({
      kind: 'defer',
      reason: '429',
      waitMs: MAX_RETRY_AFTER_MS,
    });
    expect(outcomeOf({ ok: false, reason: '502' })).toEqual({ kind: 'fail', reason: '502' });
  });

  it('a failure is retried with back-off until the last attempt, then ARCHIVED saying so', () => {
    expect(answerFor({ kind: 'fail', reason: '502' }, { attempts: 0, deferrals: 0 }, LIMITS)).toEqual({
      status: 'PENDING',
      attempts: 1,
      last_error: '502',
      waitMs: 1000,
    });
    expect(answerFor({ kind: 'fail', reason: '502' }, { attempts: 1, deferrals: 0 }, LIMITS)).toEqual({
      status: 'PENDING',
      attempts: 2,
      last_error: '502',
      waitMs: 2000,
    });
    expect(answerFor({ kind: 'fail', reason: '502' }, { attempts: 2, deferrals: 0 }, LIMITS)).toEqual({
      status: 'ARCHIVED',
      attempts: 3,
      last_error: 'Gave up after 3 attempts: 502',
    });
  });

  it('a deferral waits as asked (no attempt counted) until more than the allowed waits, then ARCHIVED', () => {
    expect(answerFor({ kind: 'defer', reason: '429', waitMs: 700 }, { attempts: 4, deferrals: 2 - 1 }, LIMITS)).toEqual({
      status: 'PENDING',
      deferrals: 2,
      last_error: '429',
      waitMs: 700,
    });
    expect(answerFor({ kind: 'defer', reason: '429', waitMs: 700 }, { attempts: 0, deferrals: 2 }, LIMITS)).toEqual({
      status: 'ARCHIVED',
      deferrals: 3,
      last_error: 'Still rate limited after 2 waits: 429',
    });
  });

  it('archive keeps its reason (cut to MAX_REASON); release only waits and keeps the last error', () => {
    const long = 'x'.repeat(MAX_REASON + 50);
    const archived = answerFor({ kind: 'archive', reason: long }, { attempts: 0, deferrals: 0 }, LIMITS);
    expect(archived.status).toBe('ARCHIVED');
    expect(archived.last_error).toHaveLength(MAX_REASON);
    expect(archived.last_error?.endsWith('…')).toBe(true);
    expect(answerFor({ kind: 'release', waitMs: 900 }, { attempts: 1, deferrals: 1 }, LIMITS)).toEqual({ status: 'PENDING', waitMs: 900 });
  });

  it("a channel's deliveries are grouped from the minimum, at most the maximum a message; fewer go one each", () => {
    expect(chunksOf([1, 2], 3, 2)).toEqual([[1], [2]]);
    expect(chunksOf([1, 2, 3, 4, 5], 3, 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunksOf([], 3, 2)).toEqual([]);
  });

  it('the delivery loop sleeps until the next due delivery (+5 ms), at most the poll, the poll when none waits', () => {
    expect(deliveryWakeMs(null, 2000)).toBe(2000);
    expect(deliveryWakeMs(100.2, 2000)).toBe(106);
    expect(deliveryWakeMs(-50, 2000)).toBe(5);
    expect(deliveryWakeMs(60_000, 2000)).toBe(2000);
  });

  it('an event closes SENT when all deliveries are sent, ARCHIVED with the reasons when one was archived, else stays open', () => {
    expect(eventClosure({ open: 1, archived: 1, attempts: 2, reasons: 'c1: x' })).toEqual({ open: true, attempts: 2 });
    expect(eventClosure({ open: 0, archived: 0, attempts: 1, reasons: null })).toEqual({ open: false, status: 'SENT', attempts: 1, last_error: null });
    expect(eventClosure({ open: 0, archived: 2, attempts: 3, reasons: 'c1: a; c2: b' })).toEqual({
      open: false,
      status: 'ARCHIVED',
      attempts: 3,
      last_error: 'c1: a; c2: b',
    });
    expect(eventClosure({ open: 0, archived: 1, attempts: 0, reasons: null })).toMatchObject({ status: 'ARCHIVED', last_error: 'archived' });
  });

  it("an event's value: the engine's as written, else filled from the trigger and the row", () => {
    const ts = new Date('2025-01-02T03:04:05Z');
    const filled = eventValue({ value: { state: 'RELEASED', value: 3 }, timestamp: ts }, TRIGGER);
    expect(filled).toEqual({
      state: 'RELEASED',
      value: 3,
      threshold: null,
      parameter: null,
      unit: null,
      device: null,
      system: 'Farm',
      system_cuid: 's1',
      timezone: 'Europe/Paris',
      time: ts.toISOString(),
    });
    expect(eventValue({ value: null, timestamp: ts }, TRIGGER).state).toBe('TRIGGERED');
    const whole = { ...filled, system: 'Other', time: '2024-01-01T00:00:00.000Z' };
    expect(eventValue({ value: whole, timestamp: ts }, TRIGGER)).toEqual(whole);
  });

  it('the release message is used for an ended alarm when there is one', () => {
    expect(templateOf(TRIGGER, 'TRIGGERED')).toBe('Too hot');
    expect(templateOf(TRIGGER, 'RELEASED')).toBe('Cool again');
    expect(templateOf({ ...TRIGGER, release_message: null }, 'RELEASED')).toBe('Too hot');
  });

  it('a toast only for an alarm within the live window; an unreadable device time falls back to the row', () => {
    const now = Date.parse('2025-01-01T12:00:00Z');
    expect(toastTime('2025-01-01T11:59:00Z', new Date(0), 900, now)).toEqual({ when: new Date('2025-01-01T11:59:00Z'), live: true });
    expect(toastTime('2025-01-01T11:00:00Z', new Date(0), 900, now).live).toBe(false);
    expect(toastTime('garbage', new Date(now - 1000), 900, now)).toEqual({ when: new Date(now - 1000), live: true });
  });
});
