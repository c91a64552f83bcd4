import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react';
import type { SessionManager, SessionState } from './session-manager';

const SessionManagerContext = createContext<SessionManager | null>(null);

export function SessionProvider({ manager, children }: { manager: SessionManager; children: ReactNode }) {
  return <SessionManagerContext.Provider value={manager}>{children}</SessionManagerContext.Provider>;
}

export function useSessionManager(): SessionManager {
  const manager = useContext(SessionManagerContext);
  if (!manager) throw new Error('useSessionManager needs a <SessionProvider>');
  return manager;
}

/** The session state (spec §4): status, context, roles, failures and errors. */
export function useSession(): SessionState {
  const manager = useSessionManager();
  return useSyncExternalStore(manager.subscribe, manager.getState);
}
