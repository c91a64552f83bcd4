import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';
import { LOGIN_PATH } from '../../server/src/common/spec-constants';
import { readLocale } from './i18n/locale';
import { makeTranslate } from './i18n/translate';
import { applyFavicon, BrandContext, loadBrand } from './layout/brand';
import LoginPage from './login/LoginPage';
import ForgotPage from './login/ForgotPage';
import ResetPage from './login/ResetPage';
import { FORGOT_PATH, RESET_PATH } from './login/account-api';

// The login page is small (no react-admin, no MUI) and part of this entry chunk, so a sign-out
// switches to it at once; the app shell (react-admin, MUI) is loaded lazily. Navigations are not
// transitions: a sign-out must unmount the shell at once, not wait behind its last renders.
const App = lazy(() => import('./App'));

function Splash() {
  return (
    <div role="status" aria-live="polite" style={{ padding: 24, fontFamily: 'system-ui, sans-serif', color: '#52606d' }}>
      {makeTranslate(readLocale())('portal.app.loading')}
    </div>
  );
}

async function boot(): Promise<void> {
  const brand = await loadBrand();
  applyFavicon(brand);
  document.documentElement.lang = readLocale();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BrandContext.Provider value={brand}>
        <BrowserRouter useTransitions={false}>
          <Suspense fallback={<Splash />}>
            <Routes>
              <Route path={LOGIN_PATH} element={<LoginPage />} />
              <Route path={FORGOT_PATH} element={<ForgotPage />} />
              <Route path={RESET_PATH} element={<ResetPage />} />
              <Route path="*" element={<App />} />
            </Routes>
          </Suspense>
        </BrowserRouter>
      </BrandContext.Provider>
    </StrictMode>,
  );
}

void boot();
