import { en } from './en';
import { fr } from './fr';
import type { Locale } from './locale';
import { hasOwnEntry, ownEntry } from '../../../shared/common/own-entry';

/** The portal's own messages per language (react-admin's are merged in by the shell). */
export const PORTAL_MESSAGES = { en, fr } as const;

export type Translate = (key: string, options?: Record<string, unknown>) => string;

const lookup = (messages: unknown, key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? ownEntry(node as Record<string, unknown>, part) : undefined), messages);

/** Plural form index for "a |||| b" messages, as Polyglot picks it for these two languages. */
const pluralIndex = (locale: Locale, n: number): number => (locale === 'fr' ? (n >= 2 ? 1 : 0) : n === 1 ? 0 : 1);

/**
 * A small Polyglot-compatible translator (%{name} interpolation, "one |||| many" with
 * smart_count) for the login page, which must not load react-admin.
 */
export function makeTranslate(locale: Locale): Translate {
  const messages = ownEntry(PORTAL_MESSAGES, locale) ?? PORTAL_MESSAGES.en;
  return (key, options = {}) => {
    const found = lookup(messages, key) ?? lookup(PORTAL_MESSAGES.en, key);
    if (typeof found !== 'string') return typeof options._ === 'string' ? options._ : key;
    let text = found;
    if (text.includes('||||')) {
      const forms = text.split('||||').map((s) => s.trim());
      const n = Number(options.smart_count ?? 1);
      text = forms[Math.min(pluralIndex(locale, n), forms.length - 1)];
    }
    return text.replace(/%\{(\w+)\}/g, (whole, name: string) => (hasOwnEntry(options, name) ? String(options[name]) : whole));
  };
}
