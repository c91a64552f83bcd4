import { useEffect, useRef, useSyncExternalStore } from 'react';
import { TOAST_HOTKEY, TOAST_VIEWPORT_WIDTH_PX } from '../../../shared/common/spec-constants';
import type { Translate } from '../i18n/translate';
import { ToastItem } from './ToastItem';
import type { CloseReason, ToastEntry, ToastStore } from './toast-store';
import './toasts.css';

export interface ToastViewportProps {
  store: ToastStore;
  /** State of the live event connection, shown as data-live. */
  live?: string;
  locale: string;
  translate: Translate;
  onClickThrough: (toast: ToastEntry) => void;
  onAcknowledge: (toast: ToastEntry) => void;
  onMute: (toast: ToastEntry) => void;
}

/**
 * The toast area (spec §4, §9): TOAST_VIEWPORT_WIDTH_PX wide at the bottom right, a labelled
 * region that F8 focuses; timers pause while the pointer is over it; "Close all" once two or
 * more are open.
 */
export function ToastViewport({ store, live, locale, translate, onClickThrough, onAcknowledge, onMute }: ToastViewportProps) {
  const { toasts, paused } = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const region = useRef<HTMLElement>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== TOAST_HOTKEY || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      e.preventDefault();
      const first = region.current?.querySelector<HTMLElement>('[data-testid="toast"][data-state="open"]');
      (first ?? region.current)?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // The pointer can leave without a pointerleave (the toast under it closes): resume on unmount.
  useEffect(() => () => store.resume(), [store]);

  const shown = toasts.filter((t) => t.state !== 'queued');
  const openCount = shown.filter((t) => t.state === 'open').length;
  const waiting = toasts.length - shown.length;
  const close = (id: string, reason: CloseReason) => store.close(id, reason);

  return (
    <section
      ref={region}
      className="toast-viewport"
      style={{ width: TOAST_VIEWPORT_WIDTH_PX }}
      role="region"
      aria-label={translate('portal.toasts.region')}
      tabIndex={-1}
      data-testid="toast-viewport"
      data-open={openCount}
      data-queued={waiting}
      data-paused={paused}
      data-live={live}
      onPointerEnter={() => store.pause()}
      onPointerLeave={() => store.resume()}
    >
      <ol className="toast-list">
        {shown.map((toast) => (
          <ToastItem
            key={toast.id}
            toast={toast}
            locale={locale}
            translate={translate}
            onClose={close}
            onClickThrough={onClickThrough}
            onAcknowledge={onAcknowledge}
            onMute={onMute}
          />
        ))}
      </ol>
      {(openCount >= 2 || waiting > 0) && (
        <div className="toast-toolbar">
          {waiting > 0 && (
            <span className="toast-waiting" data-testid="toast-waiting" aria-live="polite">
              {translate('portal.toasts.waiting', { smart_count: waiting })}
            </span>
          )}
          {openCount >= 2 && (
            <button type="button" className="toast-close-all" data-testid="toast-close-all" onClick={() => store.closeAll()}>
              {translate('portal.toasts.close_all')}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
