import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NotificationChannelSourceValue } from '../../shared/common/enums';
import type { ChannelSender, ChannelTarget, OutgoingAlert, SendResult } from '../../server/src/alerts/delivery/channel-sender';

/** One message the peer received. */
export interface RecordedMessage {
  channel_cuid: string;
  company_cuid: string;
  source: string;
  alerts: OutgoingAlert[];
  at: number;
}

/** How the peer answers one message: HTTP status and JSON body (Telegram-style `retry_after` seconds on 429). */
export type PeerAnswer = {
  status: number;
  body?: unknown;
  delayMs?: number;
  /** answered only once this settles (a test holds a channel) */ hold?: Promise<unknown>;
};

/**
 * A local HTTP peer that records every message posted to it and answers as a test tells it
 * (200 by default; 429 with retry_after, 500, 403 …). It stands for the chat / mail services,
 * which tests cannot reach.
 */
export class RecordingPeer {
  readonly messages: RecordedMessage[] = [];
  /** Decides the answer to each message (after it is recorded); default 200. */
  answer: (m: RecordedMessage, index: number) => PeerAnswer = () => ({ status: 200 });
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const m = { ...(JSON.parse(raw) as Omit<RecordedMessage, 'at'>), at: Date.now() };
    this.messages.push(m);
    const a = this.answer(m, this.messages.length - 1);
    if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
    if (a.hold) await a.hold;
    res.writeHead(a.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(a.body ?? { ok: a.status < 300 }));
  }

  /** Messages per event_cuid (how many times each event reached the peer, per channel). */
  countsByEventAndChannel(): Map<string, number> {
    const out = new Map<string, number>();
    for (const m of this.messages)
      for (const a of m.alerts) out.set(`${a.event_cuid}/${m.channel_cuid}`, (out.get(`${a.event_cuid}/${m.channel_cuid}`) ?? 0) + 1);
    return out;
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

/**
 * A small ChannelSender for outbox tests: it posts each message as JSON to a RecordingPeer and
 * maps the answer onto SendResult (2xx ok; 429 retry_after → wait; other 4xx → permanent; 5xx or
 * no answer → a failed attempt). The outbox worker is the unit under test, not this sender: the
 * real EMAIL / TELEGRAM / DISCORD senders are AlertChannelsModule's and have their own tests.
 */
export class RecordingSender implements ChannelSender {
  constructor(
    readonly source: NotificationChannelSourceValue,
    private readonly peerUrl: () => string,
  ) {}

  async send(target: ChannelTarget, alerts: OutgoingAlert[]): Promise<SendResult> {
    let res: Response;
    try {
      res = await fetch(`${this.peerUrl()}/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...target, alerts }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (e) {
      return { ok: false, reason: `No answer: ${(e as Error).message}` };
    }
    const body = (await res.json().catch(() => ({}))) as { retry_after?: number; description?: string };
    if (res.ok) return { ok: true };
    const reason = `HTTP ${res.status}${body.description ? `: ${body.description}` : ''}`;
    if (res.status === 429) return { ok: false, retryAfterMs: Math.round((body.retry_after ?? 1) * 1000), reason };
    if (res.status >= 400 && res.status < 500) return { ok: false, permanent: true, reason };
    return { ok: false, reason };
  }
}
