import { useCallback, useEffect, useRef } from 'react';
import { useLocaleState, useNotify } from 'react-admin';
import { useSession, useSessionManager } from './SessionProvider';
import { messageOf, trpc } from '../trpc';
import { isLocale, type Locale, writeLocale } from '../i18n/locale';

/** The language stored with the signed-in user (`user.meta.preferences.language`), if any. */
function useStoredLanguage(): Locale | undefined {
  const { context } = useSession();
  const stored = context?.user.meta.preferences?.language;
  return isLocale(stored) ? stored : undefined;
}

/**
 * The shell follows the user's stored language: when the session context arrives (or changes)
 * with a language, the screens switch to it and this device remembers it (the login page reads
 * the device's choice next time). Without a stored language the device's choice stays.
 */
export function useFollowStoredLanguage(): void {
  const stored = useStoredLanguage();
  const [locale, setLocale] = useLocaleState();
  const applied = useRef<Locale | undefined>(undefined);
  useEffect(() => {
    if (!stored || stored === applied.current) return;
    applied.current = stored;
    writeLocale(stored);
    if (stored !== locale) setLocale(stored);
  }, [stored, locale, setLocale]);
}

/**
 * Choosing a language in the app (the app bar's menu, the preferences page): the screens switch
 * at once, this device remembers it, and it is stored with the user (user.updatePreferences), so
 * their other devices and the server's messages and mails follow.
 */
export function useChooseLanguage(): (next: Locale) => Promise<void> {
  const [, setLocale] = useLocaleState();
  const manager = useSessionManager();
  const notify = useNotify();
  return useCallback(
    async (next: Locale) => {
      writeLocale(next);
      setLocale(next);
      try {
        manager.replaceContext(await trpc.user.updatePreferences.mutate({ language: next }));
      } catch (error) {
        notify('portal.language.save_failed', { type: 'error', messageArgs: { message: messageOf(error) } });
      }
    },
    [manager, notify, setLocale],
  );
}
