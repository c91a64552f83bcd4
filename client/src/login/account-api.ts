/** The public account endpoints beside the login (POST /api/auth/forgot, /api/auth/reset): JSON only. */
export type AccountAnswer =
  | { ok: true; message: string }
  | { ok: false; kind: 'invalid-link' | 'invalid' | 'network' | 'server'; message: string; status?: number; fieldErrors?: { path: string; message: string }[] };

async function post(path: string, body: unknown, locale: string): Promise<AccountAnswer> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: 'POST',
      // The chosen language of this device (the mail of a user without their own choice follows it).
      headers: { 'content-type': 'application/json', accept: 'application/json', 'accept-language': locale },
      credentials: 'same-origin',
      body: JSON.stringify(body),
    });
  } catch (error) {
    return { ok: false, kind: 'network', message: error instanceof Error ? error.message : String(error) };
  }
  let data: Record<string, unknown> = {};
  try {
    const parsed = (await res.json()) as unknown;
    if (parsed && typeof parsed === 'object') data = parsed as Record<string, unknown>;
  } catch {
    /* not JSON */
  }
  const message = typeof data.message === 'string' ? data.message : res.statusText;
  if (res.ok) return { ok: true, message };
  if (res.status === 400 && data.code === 'INVALID_LINK') return { ok: false, kind: 'invalid-link', message };
  if (res.status === 400) {
    return {
      ok: false,
      kind: 'invalid',
      message,
      fieldErrors: Array.isArray(data.fieldErrors) ? (data.fieldErrors as { path: string; message: string }[]) : [],
    };
  }
  return { ok: false, kind: 'server', message, status: res.status };
}

export const requestReset = (email: string, locale: string) => post('/api/auth/forgot', { email }, locale);
export const completeReset = (token: string, password: string, locale: string) => post('/api/auth/reset', { token, password }, locale);

export const FORGOT_PATH = '/auth/forgot';
export const RESET_PATH = '/auth/reset';
