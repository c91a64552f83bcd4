import { onlineManager } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Admin, CustomRoutes, localStorageStore } from 'react-admin';
import { Navigate, Route, useLocation, useNavigate } from 'react-router';
import { LOGIN_PATH } from '../../shared/common/spec-constants';
import { createAuthProvider } from './authProvider';
import { createDataProvider } from './dataProvider';
import { withOwnCompanies } from './ownCompanies';
import Home from './home/Home';
import { createI18nProvider } from './i18nProvider';
import { readLocale } from './i18n/locale';
import { useBrand } from './theme/brand';
import { PortalLayout, TopCenterNotification } from './layout/Layout';
import { GROUP_ROUTES, RESOURCES } from './resources';
import { connection } from './trpc/connection';
import { createQueryClient } from './kit/query-client';
import { fetchRoles } from './session/api';
import { checkSession, logout, type SessionCheck } from './session/auth-api';
import type { LoginLocationState } from './session/next-path';
import { clearPrimedSession, readPrimedSession } from './session/primed';
import { SessionManager } from './session/session-manager';
import { SessionProvider } from './session/SessionProvider';
import PreferencesPage from './preferences/PreferencesPage';
import { DASHBOARD_ROUTES } from './dashboards';
import { lazyPage } from './kit/lazy';
import { SystemPageRoute } from './system-page';
import { brandTheme } from './theme/theme';

// The exports page (spec: data exports) comes in its own chunk on first use.
const ExportsPage = lazyPage(
  () => import('./exports/ExportsPage'),
  (m) => m.default,
);

/** The session check, telling the connection whether the server answered (the loop runs every second). */
async function checkSessionTracked(signal: AbortSignal): Promise<SessionCheck> {
  const check = await checkSession(signal);
  if (check.kind === 'unreachable') connection.markUnreachable();
  else if (check.kind !== 'failed' || check.status !== undefined) connection.markAnswered();
  return check;
}

/**
 * react-query's idea of "online" is the connection's (a server that answers), not only the
 * browser's: queries pause during a drop and refetch when the server answers again.
 */
function followConnection(): () => void {
  const stopBrowser = connection.watchBrowser();
  onlineManager.setEventListener((setOnline) => connection.subscribe((state) => setOnline(state.reachable)));
  onlineManager.setOnline(connection.getState().reachable);
  return stopBrowser;
}

/**
 * The app shell (every page but /auth/login): the session loop, react-admin with the portal's
 * providers, layout, theme and languages. Loaded lazily, so the login page stays small.
 */
export default function App() {
  const brand = useBrand();
  const navigate = useNavigate();
  const location = useLocation();
  const here = useRef(location);
  useLayoutEffect(() => {
    here.current = location;
  });

  const [manager] = useState(
    () =>
      new SessionManager({
        checkSession: checkSessionTracked,
        answeredSince: (at) => (connection.getState().lastAnswerAt ?? -1) >= at,
        ownWrites: { mark: () => connection.writesMark(), settled: (mark) => connection.writesSettled(mark) },
        fetchRoles,
        logout,
        onSignedOut: (reason) => {
          const state: LoginLocationState = { reason, nextPathname: here.current.pathname, nextSearch: here.current.search };
          void navigate(LOGIN_PATH, { replace: true, state });
        },
      }),
  );
  useEffect(followConnection, []);
  useEffect(() => {
    manager.start(readPrimedSession());
    clearPrimedSession();
    return () => manager.stop();
  }, [manager]);

  const [authProvider] = useState(() => createAuthProvider(manager));
  const [dataProvider] = useState(() =>
    withOwnCompanies(createDataProvider(), () => {
      const state = manager.getState();
      return state.status === 'loaded' ? state.context : null;
    }),
  );
  const [queryClient] = useState(createQueryClient);
  const [i18nProvider] = useState(() => createI18nProvider(readLocale()));
  const [store] = useState(() => {
    const s = localStorageStore(undefined, 'Portal');
    // The language lives under the portal's own key (the login page shares it).
    s.setItem('locale', readLocale());
    return s;
  });
  const theme = useMemo(() => brandTheme(brand), [brand]);

  return (
    <SessionProvider manager={manager}>
      <Admin
        // The brand is in the app bar already; pages put their own title next to it.
        title=""
        authProvider={authProvider}
        dataProvider={dataProvider}
        queryClient={queryClient}
        i18nProvider={i18nProvider}
        store={store}
        theme={theme}
        darkTheme={null}
        layout={PortalLayout}
        dashboard={Home}
        notification={TopCenterNotification}
        loginPage={false}
        authCallbackPage={false}
        requireAuth
        disableTelemetry
      >
        <CustomRoutes>
          <Route path="/preferences" element={<PreferencesPage />} />
          <Route path="/exports" element={<ExportsPage />} />
          <Route path="/systems" element={<Navigate to="/system" replace />} />
          <Route path="/systems/:id" element={<SystemPageRoute />} />
          <Route path="/systems/:id/changelog" element={<SystemPageRoute />} />
          <Route path="/systems/:id/alarms" element={<SystemPageRoute />} />
          <Route path="/systems/:id/status" element={<SystemPageRoute />} />
          <Route path="/systems/:id/dashboard" element={<SystemPageRoute />} />
          {GROUP_ROUTES}
          {DASHBOARD_ROUTES}
        </CustomRoutes>
        {RESOURCES}
      </Admin>
    </SessionProvider>
  );
}
