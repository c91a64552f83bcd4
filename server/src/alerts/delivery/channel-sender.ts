import type { NotificationChannelSourceValue, NotificationSeverityValue } from '../../../../shared/common/enums';

/**
 * The seam between the outbox worker (claims events, groups them, retries, records) and the
 * channels (EMAIL, TELEGRAM, DISCORD: how one message reaches one destination).
 */

/** One alert as a channel shows it: already rendered from the trigger's message (render.ts). */
export interface OutgoingAlert {
  event_cuid: string;
  trigger_cuid: string;
  system_cuid: string;
  system_name: string;
  severity: NotificationSeverityValue;
  state: 'TRIGGERED' | 'RELEASED';
  /** The rendered message in each format (the sender picks the one its service takes). */
  text: string;
  html: string;
  markdown: string;
  /** Device time of the state change, ISO 8601. */
  time: string;
  /** The system's alarm tab in the portal (absolute, from PUBLIC_URL). */
  link: string;
}

/** A destination: one enabled channel of one company. */
export interface ChannelTarget {
  channel_cuid: string;
  company_cuid: string;
  source: NotificationChannelSourceValue;
}

export type SendResult =
  | { ok: true }
  /** The service asked to wait (HTTP 429 retry_after, SMTP 4xx): retry after this many ms. */
  | { ok: false; retryAfterMs: number; reason: string }
  /** Will never work as it stands (bad address, revoked webhook, bot removed from the chat). */
  | { ok: false; permanent: true; reason: string }
  /**
   * Failed this time (5xx, connection refused, timeout): counted as a failed attempt, retried
   * with exponential back-off, ARCHIVED after ALERTS_DELIVERY_MAX_ATTEMPTS. (The outbox treats a
   * sender that throws the same way.)
   */
  | { ok: false; reason: string; retryAfterMs?: undefined; permanent?: undefined };

export interface ChannelSender {
  readonly source: NotificationChannelSourceValue;
  /**
   * Sends one message for `alerts` to the channel: one alert, or several grouped into one
   * message (many alerts of one company to one channel within a short window).
   * Never throws for a delivery failure: it answers it.
   */
  send(target: ChannelTarget, alerts: OutgoingAlert[]): Promise<SendResult>;
}

/** Nest token: the list of senders the worker uses (one per source). */
export const CHANNEL_SENDERS = Symbol('CHANNEL_SENDERS');
