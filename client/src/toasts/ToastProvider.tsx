import { createContext, type ReactNode, useCallback, useContext, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router';
import type { TToast } from '../../../server/src/alerts/portal/portal.schema';
import { isToastMuted } from './mute';
import { formatLocale } from '../i18n/locale';
import { useSession, useSessionManager } from '../session/SessionProvider';
import { messageOf } from '../trpc';
import { useAcknowledgeToast, useLiveEvents, useMuteNotificationSource, useMuteTrigger } from './api';
import { ToastStore, type ToastEntry } from './toast-store';
import { ToastViewport } from './ToastViewport';

/** How long an alarm toast's Mute silences its trigger (the alarm menus offer other lengths and "until unmuted"). */
export const TOAST_ALARM_MUTE_MS = 24 * 3600_000;

const ToastContext = createContext<ToastStore | null>(null);

/** The toast store, for parts of the app that show their own toasts (e.g. ACTION_RESPONSE). */
export function useToasts(): ToastStore {
  const store = useContext(ToastContext);
  if (!store) throw new Error('useToasts needs a <ToastProvider>');
  return store;
}

/**
 * Toasts of the signed-in user: the live events (useLiveEvents: portalNotification.onEvent over
 * SSE) feed the store, the user's preferences and blacklist filter it, and the viewport shows it.
 */
export function ToastProvider({ children, store: given }: { children?: ReactNode; store?: ToastStore }) {
  const [store] = useState(() => given ?? new ToastStore());
  const session = useSession();
  const manager = useSessionManager();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const navigate = useNavigate();
  const latest = useRef(session);
  useLayoutEffect(() => {
    latest.current = session;
  });

  const prefs = session.context?.user.meta.preferences?.toast_notifications;
  useEffect(() => {
    store.setPreferences({ disabled: prefs?.toast_notifications_disabled === true, timeout: prefs?.toast_notification_timeout });
  }, [store, prefs?.toast_notifications_disabled, prefs?.toast_notification_timeout]);

  useEffect(() => () => store.dispose(), [store]);

  const userCuid = session.status === 'loaded' ? session.context?.user.user_cuid : undefined;
  const onToast = useCallback(
    (toast: TToast) => {
      if (isToastMuted(toast, latest.current.context?.portalNotificationBlacklist ?? [], latest.current.context?.notificationBlacklist ?? [])) return;
      // A command's answer replaces its PENDING toast (same id: the command_id).
      if (toast.command) store.upsert(toast);
      else store.push(toast);
    },
    [store],
  );
  const live = useLiveEvents(userCuid, onToast);
  const acknowledgeToast = useAcknowledgeToast();
  const muteTrigger = useMuteTrigger();
  const muteSource = useMuteNotificationSource();

  // An alarm: NotificationUserHistory (alarm.acknowledge); a portal notification: its own history.
  const acknowledge = (toast: ToastEntry) => acknowledgeToast.mutateAsync(toast);

  const onAcknowledge = (toast: ToastEntry) => {
    store.close(toast.id, 'acknowledge');
    acknowledge(toast).catch((error: unknown) => notify('portal.toasts.acknowledge_failed', { type: 'error', messageArgs: { message: messageOf(error) } }));
  };

  const onClickThrough = (toast: ToastEntry) => {
    store.close(toast.id, 'click-through');
    // Opening a portal notification is reading it (PortalNotificationUserHistory); an alarm is
    // acknowledged only on purpose (its button, or its row menu on the alarm tab this leads to).
    if (!toast.alarm) acknowledge(toast).catch(() => undefined);
    if (toast.onClickTarget.startsWith('/') && !toast.onClickTarget.startsWith('//')) void navigate(toast.onClickTarget);
  };

  const onMute = (toast: ToastEntry) => {
    const alarm = toast.alarm;
    if (alarm) {
      // Every toast of this trigger goes away; the trigger stays muted for a day (or until unmuted from its menu).
      store.closeWhere((t) => t.alarm?.trigger_cuid === alarm.trigger_cuid, 'mute');
      muteTrigger
        .mutateAsync({ trigger_cuid: alarm.trigger_cuid, until: new Date(Date.now() + TOAST_ALARM_MUTE_MS) })
        .then((context) => {
          manager.replaceContext(context);
          notify('portal.alarms.muted', { type: 'info' });
        })
        .catch((error: unknown) => notify('portal.toasts.mute_failed', { type: 'error', messageArgs: { message: messageOf(error) } }));
      return;
    }
    const source = toast.source;
    if (!source?.system_cuid) return;
    const system_cuid = source.system_cuid;
    // This toast and every other one from the same source go away.
    store.closeWhere((t) => t.source?.system_cuid === system_cuid && t.source?.notification_type === source.notification_type, 'mute');
    muteSource
      .mutateAsync({ system_cuid, notification_type: source.notification_type })
      .then((context) => {
        manager.replaceContext(context);
        notify('portal.toasts.muted', { type: 'info' });
      })
      .catch((error: unknown) => notify('portal.toasts.mute_failed', { type: 'error', messageArgs: { message: messageOf(error) } }));
  };

  return (
    <ToastContext.Provider value={store}>
      {children}
      <ToastViewport
        store={store}
        live={live}
        locale={formatLocale(locale ?? 'en')}
        translate={translate}
        onClickThrough={onClickThrough}
        onAcknowledge={onAcknowledge}
        onMute={onMute}
      />
    </ToastContext.Provider>
  );
}
