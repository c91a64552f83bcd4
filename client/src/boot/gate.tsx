import { Component, lazy, type ReactNode, Suspense, useCallback, useEffect, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { LOGIN_PATH } from '../../../shared/common/spec-constants';
import { checkSession, type SessionCheck, type TSessionContext } from '../session/auth-api';
import type { LoginLocationState } from '../session/next-path';
import { primeSession, readPrimedSession } from '../session/primed';
import { isCompleteContext } from '../session/context';
import { BootOffline } from './BootOffline';

/** The app shell (react-admin, MUI, tRPC): loaded only once the session is known to be there. */
const loadApp = () => import('../App');
const App = lazy(loadApp);

let firstCheck: Promise<SessionCheck> | null = null;

/**
 * The session check's answer the server wrote into this page (`#portal-session`), taken once: a
 * shell page knows its session without another round trip. Undefined when the page has none.
 */
function embeddedCheck(): SessionCheck | undefined {
  const element = document.getElementById('portal-session');
  if (!element) return undefined;
  element.remove();
  try {
    const answer = JSON.parse(element.textContent ?? '') as { ok?: unknown; context?: unknown; code?: unknown };
    if (answer.ok === true) return { kind: 'ok', context: answer.context as TSessionContext };
    if (answer.ok === false) return { kind: 'unauthorized', code: typeof answer.code === 'string' ? answer.code : 'MISSING', message: '' };
  } catch {
    /* not readable: ask the server */
  }
  return undefined;
}

/**
 * The first page's session: the answer written into the page, else GET /api/auth/session sent by
 * the entry before anything else renders (main.tsx), so it overlaps loading the brand and React;
 * the gate of the first page takes it.
 */
export function startFirstSessionCheck(): void {
  const embedded = embeddedCheck();
  firstCheck = embedded ? Promise.resolve(embedded) : checkSession();
}

function takeFirstCheck(): Promise<SessionCheck> {
  const check = firstCheck ?? checkSession();
  firstCheck = null;
  return check;
}

type GateState = { kind: 'checking' } | { kind: 'in' } | { kind: 'out'; reason?: string } | { kind: 'unreachable'; status?: number };

function fromCheck(check: SessionCheck): GateState {
  if (check.kind === 'ok') {
    if (!isCompleteContext(check.context)) return { kind: 'unreachable', status: 200 };
    if (check.context.user.inactive) return { kind: 'out', reason: 'INACTIVE' };
    primeSession(check.context);
    return { kind: 'in' };
  }
  if (check.kind === 'unauthorized') return { kind: 'out', reason: check.code };
  return { kind: 'unreachable', status: check.kind === 'failed' ? check.status : undefined };
}

/**
 * Every path but the public ones (/auth/…): no shell code before the session is known. Signed in
 * (or just signed in: the primed context) → the shell; no session → the login page at once with
 * the path to come back to; no answer → the offline page, which tries again.
 */
export function SessionGate({ splash }: { splash: ReactNode }) {
  const location = useLocation();
  const [state, setState] = useState<GateState>(() => (readPrimedSession() ? { kind: 'in' } : { kind: 'checking' }));
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (state.kind !== 'checking') return;
    let live = true;
    void takeFirstCheck().then((check) => live && setState(fromCheck(check)));
    return () => {
      live = false;
    };
  }, [state.kind, attempt]);

  const retry = useCallback(() => {
    setState({ kind: 'checking' });
    setAttempt((n) => n + 1);
  }, []);

  switch (state.kind) {
    case 'checking':
      return <>{splash}</>;
    case 'out': {
      // The reason (MISSING, EXPIRED, …) shows on the login page as the shell's sign-outs do.
      const next: LoginLocationState = { reason: state.reason, nextPathname: location.pathname, nextSearch: location.search };
      return <Navigate to={LOGIN_PATH} replace state={next} />;
    }
    case 'unreachable':
      return <BootOffline status={state.status} onRetry={retry} />;
    case 'in':
      return (
        <ShellLoadBoundary>
          <Suspense fallback={splash}>
            <App />
          </Suspense>
        </ShellLoadBoundary>
      );
  }
}

/** The shell's code did not arrive (the link dropped while it loaded): the offline page, which reloads. */
class ShellLoadBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: Error): { error: Error | null } {
    return { error };
  }
  render() {
    if (!this.state.error) return this.props.children;
    // Any other error is not this boundary's business.
    if (!isCodeLoadError(this.state.error)) throw this.state.error;
    return <BootOffline onRetry={() => window.location.reload()} />;
  }
}

/** Chromium, Firefox and Safari's words for a dynamic import that did not arrive. */
export function isCodeLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(message);
}

/**
 * On a public page (the login form is up), fetch the shell's code when the browser is idle, so the
 * first screen after signing in does not wait for it; not when the user asked to save data.
 */
export function warmShellWhenIdle(): () => void {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  if (connection?.saveData) return () => undefined;
  let cancelled = false;
  const idle = (fn: () => void): (() => void) => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(fn, { timeout: 3000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = setTimeout(fn, 1500);
    return () => clearTimeout(id);
  };
  let cancelIdle = () => undefined as void;
  const start = () => {
    cancelIdle = idle(() => {
      if (!cancelled) void loadApp().catch(() => undefined);
    });
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
  return () => {
    cancelled = true;
    cancelIdle();
    window.removeEventListener('load', start);
  };
}
