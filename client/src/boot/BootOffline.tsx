import { useEffect, useMemo, useState } from 'react';
import { readLocale } from '../i18n/locale';
import { makeTranslate } from '../i18n/translate';
import '../login/login.css';

/** Seconds between automatic tries while the server cannot be reached before the shell. */
export const BOOT_RETRY_SECONDS = 5;

/**
 * Shown instead of a blank page when the portal cannot be reached while it starts (no answer, a
 * 5xx, or the shell's code failed to load): tries again by itself every BOOT_RETRY_SECONDS and as
 * soon as the browser is back online, and on the button.
 */
export function BootOffline({ status, onRetry }: { status?: number; onRetry: () => void }) {
  const t = useMemo(() => makeTranslate(readLocale()), []);
  const [left, setLeft] = useState(BOOT_RETRY_SECONDS);
  useEffect(() => {
    const timer = setInterval(() => setLeft((n) => (n <= 1 ? 0 : n - 1)), 1000);
    const online = () => onRetry();
    window.addEventListener('online', online);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', online);
    };
  }, [onRetry]);
  useEffect(() => {
    if (left === 0) onRetry();
  }, [left, onRetry]);
  return (
    <div className="login-page">
      <main className="login-card" role="alert" data-testid="boot-offline" data-status={status ?? 0}>
        <h1 style={{ fontSize: '1.3rem', margin: '0 0 12px' }}>{t('portal.network.boot_offline_title')}</h1>
        <p>{status ? t('portal.network.server_down', { status }) : t('portal.network.offline')}</p>
        <p style={{ color: '#52606d' }}>{t('portal.network.boot_offline_text')}</p>
        <p style={{ color: '#52606d' }} data-testid="boot-next-try">
          {left > 0 ? t('portal.network.next_try', { seconds: left }) : t('portal.network.trying')}
        </p>
        <button type="button" className="login-submit" onClick={onRetry} data-testid="boot-retry">
          {t('portal.network.retry')}
        </button>
      </main>
    </div>
  );
}
