import { LOGIN_PATH } from '../../../shared/common/spec-constants';

/** A path inside this app that is safe to go back to after signing in; undefined otherwise. */
export function safeNextPath(candidate: unknown): string | undefined {
  if (typeof candidate !== 'string' || !candidate.startsWith('/')) return undefined;
  // "//host" and "/\host" are other sites for a browser.
  if (candidate.startsWith('//') || candidate.startsWith('/\\')) return undefined;
  if (candidate === LOGIN_PATH || candidate.startsWith(`${LOGIN_PATH}?`) || candidate.startsWith(`${LOGIN_PATH}/`)) return undefined;
  return candidate;
}

/** Router state the shell leaves when it sends someone to the login page (react-admin's names). */
export interface LoginLocationState {
  nextPathname?: string;
  nextSearch?: string;
  /** Why the session ended (a session failure code, or FAILURES). */
  reason?: string;
}

/** Where to go after signing in: ?next=, else the router state, else home. */
export function nextAfterLogin(search: string, state: unknown): string {
  const fromQuery = safeNextPath(new URLSearchParams(search).get('next'));
  if (fromQuery) return fromQuery;
  const s = (state ?? {}) as LoginLocationState;
  const fromState = safeNextPath(`${s.nextPathname ?? ''}${s.nextSearch ?? ''}`);
  return fromState ?? '/';
}
