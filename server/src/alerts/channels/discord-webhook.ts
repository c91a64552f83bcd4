import { describe } from './telegram-api';

/**
 * Discord incoming webhooks. A webhook URL is a secret (its path holds the token): only its host
 * is ever shown. Only hosts on DISCORD_WEBHOOK_HOSTS are requested, never a redirect: the portal
 * must not become a way to reach arbitrary addresses (SSRF).
 */
const WEBHOOK_PATH = /^\/api(?:\/v\d{1,2})?\/webhooks\/\d{1,25}\/[A-Za-z0-9_-]{1,200}\/?$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export const allowedHosts = (setting: string): string[] =>
  setting
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);

/**
 * The webhook URL when it is one we may call, else a reason (safe to show: it never repeats the
 * URL). https only; plain http only for a loopback host listed explicitly (a local relay, tests).
 */
export function checkWebhookUrl(raw: string, hosts: readonly string[]): { ok: true; url: URL } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: 'This is not a URL' };
  }
  const host = url.host.toLowerCase();
  if (!hosts.includes(host)) return { ok: false, reason: `Only Discord webhooks are accepted (hosts: ${hosts.join(', ')})` };
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname.toLowerCase()))) {
    return { ok: false, reason: 'A webhook URL must start with https://' };
  }
  if (url.username || url.password || url.search || url.hash) return { ok: false, reason: 'A webhook URL has no credentials, query or fragment' };
  if (!WEBHOOK_PATH.test(url.pathname)) return { ok: false, reason: 'This is not a webhook URL (…/api/webhooks/<id>/<token>)' };
  return { ok: true, url };
}

/** The host of a stored webhook, for display. */
export const webhookHost = (raw: string): string => {
  try {
    return new URL(raw).host;
  } catch {
    return '';
  }
};

export type DiscordPostResult =
  | { kind: 'ok'; remaining?: number; resetAfterMs?: number }
  | { kind: 'rateLimited'; retryAfterMs: number }
  | { kind: 'gone'; status: number }
  | { kind: 'refused'; status: number }
  | { kind: 'unreachable'; reason: string };

/** Posts one message to a webhook (already checked against the allow list). */
export async function postToWebhook(url: string, content: string, timeoutMs: number): Promise<DiscordPostResult> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content, allowed_mentions: { parse: [] } }),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    return { kind: 'unreachable', reason: describe(e) };
  }
  const text = await res.text().catch(() => '');
  const remaining = numberHeader(res, 'x-ratelimit-remaining');
  const resetAfter = numberHeader(res, 'x-ratelimit-reset-after');
  if (res.status === 429) {
    let seconds: number | undefined;
    try {
      const body = JSON.parse(text) as { retry_after?: unknown };
      if (typeof body.retry_after === 'number') seconds = body.retry_after;
    } catch {
      /* not JSON */
    }
    seconds ??= numberHeader(res, 'retry-after') ?? resetAfter ?? 1;
    return { kind: 'rateLimited', retryAfterMs: Math.max(1, Math.ceil(seconds * 1000)) };
  }
  if (res.status >= 200 && res.status < 300)
    return { kind: 'ok', remaining, resetAfterMs: resetAfter === undefined ? undefined : Math.ceil(resetAfter * 1000) };
  if (res.status === 401 || res.status === 403 || res.status === 404) return { kind: 'gone', status: res.status };
  return { kind: 'refused', status: res.status };
}

function numberHeader(res: Response, name: string): number | undefined {
  const v = res.headers.get(name);
  if (v === null || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}
