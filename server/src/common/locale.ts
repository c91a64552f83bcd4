/**
 * The portal's languages on the server: what a caller reads (error messages, field errors, mails,
 * channel texts) is written in their language. A signed-in user's choice is
 * `meta.preferences.language`; before sign-in (login, forgot password) the browser's
 * Accept-Language decides; English otherwise.
 */
export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/** The first of the portal's languages named in an Accept-Language header (by q-value), else undefined. */
export function localeOfAcceptLanguage(header: string | string[] | undefined): Locale | undefined {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return undefined;
  const ranked = text
    .slice(0, 500)
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { lang: tag.trim().slice(0, 2).toLowerCase(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((x) => x.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranked.map((x) => x.lang).find(isLocale);
}

/** A user's stored choice (`meta.preferences.language`), if any. */
export function localeOfMeta(meta: unknown): Locale | undefined {
  const language = (meta as { preferences?: { language?: unknown } } | null | undefined)?.preferences?.language;
  return isLocale(language) ? language : undefined;
}

/** The language of one caller: their stored choice, else their browser's, else English. */
export function callerLocale(meta: unknown, acceptLanguage: string | string[] | undefined): Locale {
  return localeOfMeta(meta) ?? localeOfAcceptLanguage(acceptLanguage) ?? DEFAULT_LOCALE;
}
