import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SECURITY_HEADER_NAMES } from './http-guards';

/**
 * Conditional answers for polled JSON GETs (the session check each second, tRPC queries of the
 * home's refresh): the answer carries a weak ETag over its JSON and `private, no-cache`, so the
 * browser keeps it and asks again with If-None-Match; when this caller's fresh answer has the
 * same tag, the reply is a 304 without a body. The tag is always compared with the answer just
 * computed for THIS caller: a tag taken from someone else's answer can only match an answer the
 * caller is shown anyway. Weak because the same JSON is sent as br, gzip or identity.
 */
export function weakEtag(body: string | Buffer): string {
  return `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** RFC 9110 §13.1.2: If-None-Match against a current tag, by weak comparison; `*` matches any. */
export function noneMatchHits(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  for (const tag of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const t = tag.trim();
    if (t === '*' || (t && opaque(t) === wanted)) return true;
  }
  return false;
}

/**
 * Headers a 304 leaves out. Those describing a body that is not sent (RFC 9110 §15.4.5), and the
 * security headers: the browser updates its stored 200 with the 304's headers and keeps every
 * stored header the 304 does not name (RFC 9111 §4.3.4), so the answer JS reads still has them.
 * The session check is a 304 each second per open tab: its ~300 bytes of security headers were
 * most of an idle tab's traffic. Kept: etag, cache-control, date, set-cookie.
 */
const DROPPED_ON_304 = ['content-type', 'content-length', 'content-encoding', 'content-disposition', 'transfer-encoding', ...SECURITY_HEADER_NAMES];

/**
 * An onSend hook for GET routes chosen by `applies`: a whole 200 JSON answer (string or Buffer,
 * never a stream: subscriptions stay as they are) gets an ETag and `private, no-cache`, and a
 * matching If-None-Match turns it into an empty 304. Errors and every other method are untouched.
 * Register it after any hook that turns the answer into its final bytes.
 */
export function conditionalGet(applies: (req: FastifyRequest) => boolean) {
  return async (req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    if (req.method !== 'GET' || reply.statusCode !== 200 || !applies(req)) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (!/^application\/json\s*(;|$)/i.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    const etag = weakEtag(payload);
    reply.header('etag', etag).header('cache-control', 'private, no-cache');
    if (!noneMatchHits(req.headers['if-none-match'], etag)) return payload;
    reply.code(304);
    for (const name of DROPPED_ON_304) reply.removeHeader(name);
    return null;
  };
}
