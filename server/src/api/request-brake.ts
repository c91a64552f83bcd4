import type { FastifyReply, FastifyRequest } from 'fastify';
import { BoundedMap } from '../common/bounded-map';
import { callerLocale } from '../common/locale';
import { messageCode, translate } from '../common/messages';
import { readSessionCookie } from '../auth/cookies';

/** Sessions a brake remembers at most; past it the oldest are forgotten (each starts again with a full bucket). */
const MAX_SESSIONS = 50_000;

/**
 * A token bucket per session for tRPC calls (REQUESTS_PER_SESSION_PER_SECOND, burst
 * REQUESTS_PER_SESSION_BURST), kept by each instance. Every call of a batch counts. A session
 * that calls faster than its share (a script looping on 429s, a runaway tab) is answered 429 with
 * Retry-After before its body is read, its session checked or any query run: its calls then cost
 * almost nothing, and the other companies' requests keep the cores. People clicking through the
 * portal, dashboards and live charts stay far below it.
 */
export class RequestBrake {
  private readonly buckets = new BoundedMap<string, { tokens: number; at: number }>(MAX_SESSIONS);

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {}

  /** Takes `calls` tokens of `key`: 0 when allowed, else the whole seconds to wait before they would be. */
  take(key: string, calls: number, now = performance.now()): number {
    if (this.perSecond <= 0) return 0;
    const b = this.buckets.get(key);
    let tokens = b ? Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.perSecond) : this.burst;
    const allowed = tokens >= calls;
    if (allowed) tokens -= calls;
    this.buckets.set(key, { tokens, at: now }); // now the most recently used
    return allowed ? 0 : Math.max(1, Math.ceil((Math.min(calls, this.burst) - tokens) / this.perSecond));
  }

  /** Sessions remembered (a gauge). */
  get size(): number {
    return this.buckets.size;
  }
}

/**
 * The Fastify hook: a tRPC request of a session past its share answers 429 (a tRPC error body, in
 * the caller's language, Retry-After set). Requests without a session pass (sign-in has its own
 * brake; one shared bucket per address would let one visitor stall the others behind a proxy).
 */
export function requestBrakeHook(brake: RequestBrake, languageOf: (cookie: string) => unknown, refused: () => void) {
  return (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    if (!req.url.startsWith('/api/trpc/')) return done();
    const cookie = readSessionCookie(req);
    if (!cookie) return done();
    const path = (req.params as { path?: unknown } | undefined)?.path;
    const calls = typeof path === 'string' && (req.query as { batch?: unknown } | undefined)?.batch !== undefined ? path.split(',').length : 1;
    const wait = brake.take(cookie, calls);
    if (!wait) return done();
    refused();
    const english = `Too many requests from this session; try again in ${wait} s`;
    const locale = callerLocale(languageOf(cookie), req.headers['accept-language']);
    void reply
      .code(429)
      .header('retry-after', String(wait))
      .header('content-type', 'application/json; charset=utf-8')
      .send({
        error: {
          json: { message: translate(english, locale), code: -32029, data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, messageCode: messageCode(english) } },
        },
      });
  };
}
