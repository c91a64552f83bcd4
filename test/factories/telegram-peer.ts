import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { patience } from './patience';

export interface SentTelegram {
  chat_id: string;
  text: string;
  parse_mode?: string;
  at: number;
}

/**
 * A local HTTP server speaking the part of Telegram's Bot API the portal uses: getMe, sendMessage
 * and getUpdates (long polling over a queue of updates the test pushes). On demand: 429 with
 * parameters.retry_after, 403 for a chat the bot was kicked from. Counts messages per chat.
 */
export class TelegramPeer {
  readonly sent: SentTelegram[] = [];
  readonly perChat = new Map<string, number>();
  /** Offsets asked by getUpdates, in order. */
  readonly offsets: number[] = [];
  /** Every request path with the token replaced (a request with another token answers 401). */
  readonly calls: string[] = [];
  readonly kicked = new Set<string>();
  private updates: { update_id: number; [k: string]: unknown }[] = [];
  private nextUpdateId = 1000;
  private waiters: (() => void)[] = [];
  private rateLimited: { retry_after: number; times: number } | null = null;
  /**
   * Milliseconds each sendMessage waits before it answers (the message is recorded as received
   * first, as Telegram delivers it before the bot reads the answer): sends stay in flight.
   */
  sendDelayMs = 0;
  private server!: Server;
  port = 0;

  constructor(
    readonly token: string,
    readonly username = 'portal_test_bot',
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static async start(token: string, username?: string): Promise<TelegramPeer> {
    const peer = new TelegramPeer(token, username);
    peer.server = createServer((req, res) => void peer.handle(req, res));
    await new Promise<void>((r) => peer.server.listen(0, '127.0.0.1', () => r()));
    peer.port = (peer.server.address() as AddressInfo).port;
    return peer;
  }

  /** Queues an update (its update_id is assigned); returns it. */
  push(update: Record<string, unknown>): number {
    const update_id = this.nextUpdateId++;
    this.updates.push({ update_id, ...update });
    for (const w of this.waiters.splice(0)) w();
    return update_id;
  }

  /** The next `times` sendMessage calls answer 429 with parameters.retry_after. */
  rateLimitNext(retry_after: number, times = 1): void {
    this.rateLimited = { retry_after, times };
  }

  async waitForSent(count: number, timeoutMs = 10_000): Promise<SentTelegram> {
    const end = Date.now() + patience(timeoutMs);
    while (this.sent.length < count) {
      if (Date.now() > end) throw new Error(`Telegram peer: ${this.sent.length} messages, expected ${count}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.sent[count - 1];
  }

  /**
   * Checks, without enforcing anything, that what arrived kept Telegram's bot limits: at most 1
   * message per second to a chat, 20 per minute to a group (negative id), 30 per second overall.
   * A window counts as broken when max + 1 messages arrived within it less `slackMs` (arrival
   * times jitter a little around the sender's schedule). Answers the broken windows per rule and
   * the tightest span seen per rule (between a message and the one `max` places before it; null
   * when no chat got more than `max`).
   */
  limitReport(
    from = 0,
    slackMs = 50,
  ): { perChat: number; perGroup: number; overall: number; tightestMs: { perChat: number | null; perGroup: number | null; overall: number | null } } {
    const sent = this.sent.slice(from);
    const tightestMs = { perChat: Infinity, perGroup: Infinity, overall: Infinity };
    const broken = (times: number[], max: number, perMs: number, rule: keyof typeof tightestMs) => {
      let n = 0;
      for (let i = max; i < times.length; i++) {
        const span = times[i] - times[i - max];
        tightestMs[rule] = Math.min(tightestMs[rule], span);
        if (span < perMs - slackMs) n++;
      }
      return n;
    };
    const byChat = new Map<string, number[]>();
    for (const m of sent) byChat.set(m.chat_id, [...(byChat.get(m.chat_id) ?? []), m.at]);
    let perChat = 0;
    let perGroup = 0;
    for (const [chat, times] of byChat) {
      times.sort((a, b) => a - b);
      perChat += broken(times, 1, 1000, 'perChat');
      if (chat.startsWith('-')) perGroup += broken(times, 20, 60_000, 'perGroup');
    }
    const all = sent.map((m) => m.at).sort((a, b) => a - b);
    const overall = broken(all, 30, 1000, 'overall');
    const tight = (v: number) => (Number.isFinite(v) ? v : null);
    return {
      perChat,
      perGroup,
      overall,
      tightestMs: { perChat: tight(tightestMs.perChat), perGroup: tight(tightestMs.perGroup), overall: tight(tightestMs.overall) },
    };
  }

  close(): Promise<void> {
    for (const w of this.waiters.splice(0)) w();
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    } catch {
      /* empty */
    }
    const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
    const answer = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    if (!m) return answer(404, { ok: false, error_code: 404, description: 'Not Found' });
    this.calls.push(`/bot<token>/${m[2]}`);
    if (m[1] !== this.token) return answer(401, { ok: false, error_code: 401, description: 'Unauthorized' });
    switch (m[2]) {
      case 'getMe':
        return answer(200, { ok: true, result: { id: 7_000_001, is_bot: true, first_name: 'Portal', username: this.username } });
      case 'sendMessage': {
        const chat_id = String(body.chat_id);
        if (this.kicked.has(chat_id)) return answer(403, { ok: false, error_code: 403, description: 'Forbidden: bot was kicked from the supergroup chat' });
        if (this.rateLimited && this.rateLimited.times > 0) {
          this.rateLimited.times--;
          const retry_after = this.rateLimited.retry_after;
          return answer(429, { ok: false, error_code: 429, description: `Too Many Requests: retry after ${retry_after}`, parameters: { retry_after } });
        }
        if (chat_id === 'unknown') return answer(400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
        this.sent.push({ chat_id, text: String(body.text), parse_mode: body.parse_mode as string | undefined, at: Date.now() });
        this.perChat.set(chat_id, (this.perChat.get(chat_id) ?? 0) + 1);
        if (this.sendDelayMs > 0) await new Promise((r) => setTimeout(r, this.sendDelayMs));
        if (res.destroyed) return;
        return answer(200, { ok: true, result: { message_id: this.sent.length, chat: { id: Number(chat_id), type: 'group' }, text: body.text } });
      }
      case 'getUpdates': {
        const offset = Number(body.offset ?? 0);
        const timeout = Math.min(Number(body.timeout ?? 0), 50);
        this.offsets.push(offset);
        // Updates below the offset are confirmed: Telegram forgets them.
        this.updates = this.updates.filter((u) => u.update_id >= offset);
        if (this.updates.length === 0 && timeout > 0) {
          await new Promise<void>((r) => {
            const t = setTimeout(r, timeout * 1000);
            this.waiters.push(() => {
              clearTimeout(t);
              r();
            });
            req.on('close', () => clearTimeout(t));
          });
        }
        if (res.destroyed) return;
        return answer(200, { ok: true, result: this.updates.filter((u) => u.update_id >= offset).slice(0, 100) });
      }
      default:
        return answer(404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
    }
  }
}
