import type { NotificationSeverityValue } from '../../../../shared/common/enums';
import { toStorableText } from '../../../../shared/common/storable';
import { ZTriggerEventValue, type TTriggerEventValue } from '../../../../shared/alerts/rules';
import type { SendResult } from './channel-sender';

/**
 * The outbox's rules (docs/alerts.md, "The outbox"), pure: what a send's answer does to a
 * delivery (retry with back-off, wait as asked, give up), how a channel's claimed deliveries are
 * grouped, when an event is done, what an event's value is. No SQL, no clock but the one passed in.
 */

/** Longest "retry after" honoured as asked; longer ones wait this long (and are asked again). */
export const MAX_RETRY_AFTER_MS = 3_600_000;
/** Longest reason kept in last_error. */
export const MAX_REASON = 2000;

/** The settings the rules read (AppConfig has them all). */
export interface OutboxLimits {
  ALERTS_DELIVERY_MAX_ATTEMPTS: number;
  ALERTS_DELIVERY_MAX_DEFERRALS: number;
  ALERTS_DELIVERY_BACKOFF_BASE_MS: number;
  ALERTS_DELIVERY_BACKOFF_MAX_MS: number;
}

/** An event as the event loop claimed it. */
export interface ClaimedEvent {
  event_cuid: string;
  timestamp: Date;
  value: unknown;
  trigger_cuid: string;
  notification_cuid: string | null;
  status: 'PENDING' | 'SENDING';
}

/** The trigger (and its system) an event belongs to. */
export interface TriggerRow {
  trigger_cuid: string;
  name: string;
  message: string;
  release_message: string | null;
  severity_level: NotificationSeverityValue;
  system_cuid: string;
  system_name: string;
  timezone: string;
}

/** What a send's answer does to its deliveries. */
export type FinishOutcome =
  | { kind: 'sent' }
  | { kind: 'archive'; reason: string }
  | { kind: 'fail'; reason: string }
  | { kind: 'defer'; reason: string; waitMs: number }
  | { kind: 'release'; waitMs: number };

/**
 * What is written for one delivery that is not SENT (only while its claim still holds it):
 * ARCHIVED with its reason, or PENDING again after `waitMs`. Fields left out stay as they are.
 */
export type DeliveryAnswer =
  | { status: 'ARCHIVED'; last_error: string; attempts?: number; deferrals?: number }
  | { status: 'PENDING'; waitMs: number; last_error?: string; attempts?: number; deferrals?: number };

export const truncateReason = (s: string): string => toStorableText(s.length > MAX_REASON ? `${s.slice(0, MAX_REASON - 1)}…` : s);
export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Back-off before attempt `attempts + 1`: base × 2^(attempts−1), at most the maximum. */
export function backoffMs(attempts: number, limits: Pick<OutboxLimits, 'ALERTS_DELIVERY_BACKOFF_BASE_MS' | 'ALERTS_DELIVERY_BACKOFF_MAX_MS'>): number {
  return Math.min(limits.ALERTS_DELIVERY_BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), limits.ALERTS_DELIVERY_BACKOFF_MAX_MS);
}

/** A sender's answer (or its exception, already made a failure) as an outcome for the chunk it sent. */
export function outcomeOf(result: SendResult): FinishOutcome {
  if (result.ok) return { kind: 'sent' };
  if ('permanent' in result && result.permanent) return { kind: 'archive', reason: result.reason };
  if ('retryAfterMs' in result && result.retryAfterMs !== undefined) {
    return { kind: 'defer', reason: result.reason, waitMs: Math.min(Math.max(0, result.retryAfterMs), MAX_RETRY_AFTER_MS) };
  }
  return { kind: 'fail', reason: result.reason };
}

/**
 * The answer written for a delivery (`attempts` and `deferrals` as claimed) that was not sent, and
 * whether that finishes it (ARCHIVED). A failure is retried with back-off until
 * ALERTS_DELIVERY_MAX_ATTEMPTS; a deferral waits as asked until more than ALERTS_DELIVERY_MAX_DEFERRALS.
 */
export function answerFor(outcome: Exclude<FinishOutcome, { kind: 'sent' }>, d: { attempts: number; deferrals: number }, limits: OutboxLimits): DeliveryAnswer {
  switch (outcome.kind) {
    case 'archive':
      return { status: 'ARCHIVED', last_error: truncateReason(outcome.reason) };
    case 'fail': {
      const attempts = d.attempts + 1;
      if (attempts >= limits.ALERTS_DELIVERY_MAX_ATTEMPTS) {
        return { status: 'ARCHIVED', attempts, last_error: truncateReason(`Gave up after ${attempts} attempts: ${outcome.reason}`) };
      }
      return { status: 'PENDING', attempts, last_error: truncateReason(outcome.reason), waitMs: backoffMs(attempts, limits) };
    }
    case 'defer': {
      const deferrals = d.deferrals + 1;
      if (deferrals > limits.ALERTS_DELIVERY_MAX_DEFERRALS) {
        return { status: 'ARCHIVED', deferrals, last_error: truncateReason(`Still rate limited after ${deferrals - 1} waits: ${outcome.reason}`) };
      }
      return { status: 'PENDING', deferrals, last_error: truncateReason(outcome.reason), waitMs: outcome.waitMs };
    }
    case 'release':
      return { status: 'PENDING', waitMs: outcome.waitMs };
  }
}

/** A channel's claimed deliveries in sends: grouped (at most `max` a message) from `min` of them, else one each. */
export function chunksOf<T>(list: readonly T[], min: number, max: number): T[][] {
  const chunks: T[][] = [];
  if (list.length >= min) {
    for (let i = 0; i < list.length; i += max) chunks.push(list.slice(i, i + max));
  } else {
    for (const w of list) chunks.push([w]);
  }
  return chunks;
}

/** How long the delivery loop sleeps: until the next due delivery (+5 ms), at most the poll; the poll when none waits. */
export function deliveryWakeMs(msUntilDue: number | null, pollMs: number): number {
  return msUntilDue === null ? pollMs : Math.min(pollMs, Math.max(0, Math.ceil(msUntilDue)) + 5);
}

/** Counts of an event's deliveries (see OutboxEventsRepository.deliverySummary). */
export interface DeliverySummary {
  open: number;
  archived: number;
  attempts: number;
  reasons: string | null;
}

/**
 * An event is SENT once every delivery of it is SENT, ARCHIVED (with the channels' reasons) once
 * every delivery is done and one was ARCHIVED; otherwise it stays open (SENDING).
 */
export function eventClosure(
  s: DeliverySummary,
): { open: true; attempts: number } | { open: false; status: 'SENT' | 'ARCHIVED'; attempts: number; last_error: string | null } {
  if (s.open > 0) return { open: true, attempts: s.attempts };
  return {
    open: false,
    status: s.archived ? 'ARCHIVED' : 'SENT',
    attempts: s.attempts,
    last_error: s.archived ? truncateReason(s.reasons ?? 'archived') : null,
  };
}

/** The event's value as the engine wrote it; what is missing is filled from the trigger and the event row. */
export function eventValue(event: Pick<ClaimedEvent, 'value' | 'timestamp'>, trigger: TriggerRow): TTriggerEventValue {
  const parsed = ZTriggerEventValue.safeParse(event.value);
  if (parsed.success) return parsed.data;
  const raw = (event.value && typeof event.value === 'object' ? event.value : {}) as Partial<TTriggerEventValue>;
  return {
    state: raw.state === 'RELEASED' ? 'RELEASED' : 'TRIGGERED',
    value: raw.value ?? null,
    threshold: raw.threshold ?? null,
    parameter: typeof raw.parameter === 'string' ? raw.parameter : null,
    unit: typeof raw.unit === 'string' ? raw.unit : null,
    device: typeof raw.device === 'string' ? raw.device : null,
    system: trigger.system_name,
    system_cuid: trigger.system_cuid,
    timezone: trigger.timezone,
    time: new Date(event.timestamp).toISOString(),
  };
}

/** The message template of a state: the release message when the alarm ended and it has one. */
export function templateOf(trigger: Pick<TriggerRow, 'message' | 'release_message'>, state: 'TRIGGERED' | 'RELEASED'): string {
  return state === 'RELEASED' && trigger.release_message ? trigger.release_message : trigger.message;
}

/**
 * The device time of an event (the row's timestamp when the value's time is unreadable), and
 * whether it is recent enough for a toast (within ALERTS_LIVE_WINDOW_SECONDS of `now`).
 */
export function toastTime(valueTime: string, eventTimestamp: Date, liveWindowSeconds: number, now: number): { when: Date; live: boolean } {
  const deviceTime = new Date(valueTime);
  const when = Number.isNaN(deviceTime.getTime()) ? new Date(eventTimestamp) : deviceTime;
  return { when, live: !(now - when.getTime() > liveWindowSeconds * 1000) };
}
