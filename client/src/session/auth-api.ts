import type { TSessionContext } from '../../../server/src/auth/session.schema';
import { LOGIN_PATH } from '../../../shared/common/spec-constants';

/** The REST session endpoints under /api/auth (the cookie itself is HttpOnly: JS never reads it). */
export type { TSessionContext };

export type LoginFailure =
  | { kind: 'wrong-credentials'; message: string }
  | { kind: 'inactive'; message: string }
  | { kind: 'too-many'; message: string; retryAfterSeconds: number }
  | { kind: 'invalid'; message: string; fieldErrors: { path: string; message: string }[] }
  | { kind: 'network'; message: string }
  | { kind: 'server'; message: string; status: number };

export type LoginResult = { ok: true; context: TSessionContext } | { ok: false; failure: LoginFailure };

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

async function readJson(res: Response): Promise<Record<string, unknown>> {
  try {
    const body = (await res.json()) as unknown;
    return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function login(email: string, password: string): Promise<LoginResult> {
  let res: Response;
  try {
    res = await fetch('/api/auth/login', {
      method: 'POST',
      headers: JSON_HEADERS,
      credentials: 'same-origin',
      body: JSON.stringify({ email, password }),
    });
  } catch (error) {
    return { ok: false, failure: { kind: 'network', message: error instanceof Error ? error.message : String(error) } };
  }
  const body = await readJson(res);
  const message = typeof body.message === 'string' ? body.message : res.statusText;
  if (res.ok) return { ok: true, context: body as unknown as TSessionContext };
  switch (res.status) {
    case 401:
      return { ok: false, failure: { kind: 'wrong-credentials', message } };
    case 403:
      return { ok: false, failure: { kind: 'inactive', message } };
    case 429: {
      const header = Number(res.headers.get('retry-after'));
      const fromBody = Number(body.retryAfterSeconds);
      const retryAfterSeconds = Number.isFinite(fromBody) && fromBody > 0 ? fromBody : Number.isFinite(header) && header > 0 ? header : 60;
      return { ok: false, failure: { kind: 'too-many', message, retryAfterSeconds: Math.ceil(retryAfterSeconds) } };
    }
    case 400:
      return {
        ok: false,
        failure: { kind: 'invalid', message, fieldErrors: Array.isArray(body.fieldErrors) ? (body.fieldErrors as { path: string; message: string }[]) : [] },
      };
    default:
      return { ok: false, failure: { kind: 'server', message, status: res.status } };
  }
}

export type SessionCheck =
  | { kind: 'ok'; context: TSessionContext }
  /** 401: the server refused the cookie (and already deleted it). */
  | { kind: 'unauthorized'; code: string; message: string }
  /** The server answered, but not with a session: 5xx, a time-out of our own, a malformed answer. Counts as a failed check. */
  | { kind: 'failed'; message: string; status?: number }
  /** No answer at all (fetch rejected: offline, DNS, connection refused or cut). Does not count. */
  | { kind: 'unreachable'; message: string };

/**
 * `cache: 'no-cache'`: the browser asks the server each time, with the ETag of the context it keeps;
 * an unchanged context comes back as a bodiless 304, which reaches this code as the kept 200.
 */
export async function checkSession(signal?: AbortSignal): Promise<SessionCheck> {
  let res: Response;
  try {
    res = await fetch('/api/auth/session', { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-cache', signal });
  } catch (error) {
    if (signal?.aborted) return { kind: 'failed', message: 'The session check timed out' };
    return { kind: 'unreachable', message: error instanceof Error ? error.message : String(error) };
  }
  const body = await readJson(res);
  if (res.ok) return { kind: 'ok', context: body as unknown as TSessionContext };
  const message = typeof body.message === 'string' ? body.message : res.statusText;
  if (res.status === 401) return { kind: 'unauthorized', code: typeof body.code === 'string' ? body.code : 'MISSING', message };
  return { kind: 'failed', message, status: res.status };
}

/** Ends the session on the server (which deletes the cookie); never throws. */
export async function logout(): Promise<string> {
  try {
    const res = await fetch('/api/auth/logout', { method: 'POST', headers: JSON_HEADERS, credentials: 'same-origin', body: '{}' });
    const body = await readJson(res);
    return typeof body.redirectTo === 'string' && body.redirectTo.startsWith('/') ? body.redirectTo : LOGIN_PATH;
  } catch {
    return LOGIN_PATH;
  }
}
