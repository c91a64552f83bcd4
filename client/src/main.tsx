import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';
import { LOGIN_PATH } from '../../shared/common/spec-constants';
import { SessionGate, startFirstSessionCheck, warmShellWhenIdle } from './boot/gate';
import { readLocale } from './i18n/locale';
import { makeTranslate } from './i18n/translate';
import { applyFavicon, BrandContext, loadBrand } from './theme/brand';
import LoginPage from './login/LoginPage';
import ForgotPage from './login/ForgotPage';
import ResetPage from './login/ResetPage';
import { FORGOT_PATH, RESET_PATH } from './login/account-api';

/**
 * Public pages: plain React in this entry chunk (no react-admin, no MUI), so they show at once and a
 * sign-out switches to the login page at once. Add a public page here (and to PUBLIC_PREFIX).
 */
const PUBLIC_ROUTES = [
  { path: LOGIN_PATH, element: <LoginPage /> },
  { path: FORGOT_PATH, element: <ForgotPage /> },
  { path: RESET_PATH, element: <ResetPage /> },
];
/** Paths under it are public: the session is not asked for, and the shell's code warms up meanwhile. */
const PUBLIC_PREFIX = '/auth/';
const isPublicPath = (pathname: string) => pathname.startsWith(PUBLIC_PREFIX);

// The session question goes out first, before the brand and the first render (docs/client-network.md).
if (!isPublicPath(window.location.pathname)) startFirstSessionCheck();

function Splash() {
  return (
    <div role="status" aria-live="polite" style={{ padding: 24, fontFamily: 'system-ui, sans-serif', color: '#52606d' }}>
      {makeTranslate(readLocale())('portal.app.loading')}
    </div>
  );
}

/** A public page around its route: the shell's code is fetched in the background once the page is up. */
function Public({ children }: { children: React.ReactNode }) {
  useEffect(warmShellWhenIdle, []);
  return <>{children}</>;
}

async function boot(): Promise<void> {
  const brand = await loadBrand();
  applyFavicon(brand);
  document.documentElement.lang = readLocale();
  // Navigations are not transitions: a sign-out must unmount the shell at once, not wait behind its last renders.
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BrandContext.Provider value={brand}>
        <BrowserRouter useTransitions={false}>
          <Routes>
            {PUBLIC_ROUTES.map((r) => (
              <Route key={r.path} path={r.path} element={<Public>{r.element}</Public>} />
            ))}
            <Route path="*" element={<SessionGate splash={<Splash />} />} />
          </Routes>
        </BrowserRouter>
      </BrandContext.Provider>
    </StrictMode>,
  );
}

void boot();
