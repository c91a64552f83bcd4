import { useSyncExternalStore } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatRelative } from '../i18n/format';
import { useNow } from '../kit/useNow';
import { connection } from '../trpc/connection';

/**
 * One banner while the server cannot be reached (docs/client-network.md), in place of an error per
 * request: the data on screen stays, with the time of the last answer; it goes at the next answer.
 */
export function ConnectionBanner() {
  const state = useSyncExternalStore(connection.subscribe, connection.getState);
  if (state.reachable) return null;
  return <OfflineBanner lastAnswerAt={state.lastAnswerAt} />;
}

/** Shown while the server cannot be reached: its clock starts when it appears and moves every 15 s. */
function OfflineBanner({ lastAnswerAt }: { lastAnswerAt: number | null }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const now = useNow(15_000);
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="offline-banner"
      style={{
        position: 'fixed',
        top: 0,
        left: '50%',
        transform: 'translateX(-50%)',
        zIndex: 2000,
        maxWidth: 'calc(100vw - 16px)',
        marginTop: 8,
        padding: '6px 14px',
        borderRadius: 6,
        background: '#37474f',
        color: '#fff',
        font: '500 14px/1.4 system-ui, sans-serif',
        boxShadow: '0 2px 8px rgba(0,0,0,.3)',
        textAlign: 'center',
      }}
    >
      <span>{translate('portal.network.offline')}</span>
      {lastAnswerAt !== null && (
        <span data-testid="offline-data-age" style={{ display: 'block', fontWeight: 400, fontSize: 12, opacity: 0.85 }}>
          {translate('portal.network.updated', { age: formatRelative(lastAnswerAt, now, locale) })}
        </span>
      )}
    </div>
  );
}
