import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DiscordPost {
  webhook: string;
  body: { content?: string; allowed_mentions?: { parse?: string[] }; [k: string]: unknown };
  at: number;
}

/**
 * A local HTTP server speaking Discord's incoming-webhook API: POST /api/webhooks/<id>/<token>
 * answers 204 with X-RateLimit-* headers for a known webhook, 404 for an unknown one, and 429
 * with retry_after (body, seconds) and Retry-After (header) on demand. Counts every request.
 */
export class DiscordPeer {
  readonly posts: DiscordPost[] = [];
  requests = 0;
  private readonly hooks = new Set<string>();
  private rateLimited: { retry_after: number; times: number } | null = null;
  /** X-RateLimit-Remaining to answer (bucket size 5, counting down, reset after `resetAfter` s). */
  bucket = { size: 5, remaining: 5, resetAfter: 2, windowStart: 0 };
  /** Requests that came while the bucket was empty (a client that honours the headers sends none). */
  overruns = 0;
  private server!: Server;
  port = 0;

  static async start(): Promise<DiscordPeer> {
    const peer = new DiscordPeer();
    peer.server = createServer((req, res) => void peer.handle(req, res));
    await new Promise<void>((r) => peer.server.listen(0, '127.0.0.1', () => r()));
    peer.port = (peer.server.address() as AddressInfo).port;
    return peer;
  }

  get host(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** A new webhook this peer accepts; returns its URL. */
  webhook(id = String(1e17 + Math.floor(Math.random() * 1e15)), token = `tok_${Math.random().toString(36).slice(2)}SECRET`): string {
    this.hooks.add(`${id}/${token}`);
    return `http://${this.host}/api/webhooks/${id}/${token}`;
  }

  /** The webhook is deleted (404 from now on). */
  remove(url: string): void {
    this.hooks.delete(new URL(url).pathname.replace(/^\/api\/webhooks\//, ''));
  }

  rateLimitNext(retry_after: number, times = 1): void {
    this.rateLimited = { retry_after, times };
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.requests++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const m = /^\/api\/webhooks\/(\d+\/[A-Za-z0-9_-]+)\/?$/.exec(req.url ?? '');
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || !m || !this.hooks.has(m[1])) return json(404, { message: 'Unknown Webhook', code: 10015 });
    if (this.rateLimited && this.rateLimited.times > 0) {
      this.rateLimited.times--;
      const s = this.rateLimited.retry_after;
      return json(
        429,
        { message: 'You are being rate limited.', retry_after: s, global: false },
        { 'retry-after': String(Math.ceil(s)), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': String(s) },
      );
    }
    const now = Date.now();
    if (now - this.bucket.windowStart >= this.bucket.resetAfter * 1000) Object.assign(this.bucket, { remaining: this.bucket.size, windowStart: now });
    if (this.bucket.remaining === 0) {
      this.overruns++;
      const s = Math.max(0.001, (this.bucket.windowStart + this.bucket.resetAfter * 1000 - now) / 1000);
      return json(
        429,
        { message: 'You are being rate limited.', retry_after: s, global: false },
        { 'retry-after': String(Math.ceil(s)), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': String(s) },
      );
    }
    let body: DiscordPost['body'];
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return json(400, { message: 'Cannot send an empty message', code: 50006 });
    }
    this.posts.push({ webhook: m[1], body, at: Date.now() });
    this.bucket.remaining = Math.max(0, this.bucket.remaining - 1);
    res.writeHead(204, {
      'x-ratelimit-limit': String(this.bucket.size),
      'x-ratelimit-remaining': String(this.bucket.remaining),
      'x-ratelimit-reset-after': String(Math.max(0, (this.bucket.windowStart + this.bucket.resetAfter * 1000 - Date.now()) / 1000)),
    });
    res.end();
  }
}
