/** The languages of the portal and the one chosen on this device (localStorage). */
export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
export const LOCALE_STORAGE_KEY = 'portal.locale';

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

export function readLocale(): Locale {
  try {
    const stored = localStorage.getItem(LOCALE_STORAGE_KEY);
    if (isLocale(stored)) return stored;
  } catch {
    /* storage disabled */
  }
  const browser = (typeof navigator !== 'undefined' ? navigator.language : 'en').slice(0, 2).toLowerCase();
  return isLocale(browser) ? browser : 'en';
}

export function writeLocale(locale: Locale): void {
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    /* storage disabled: the choice lasts for this page only */
  }
  document.documentElement.lang = locale;
}

/** For dates and numbers: the browser's own variant of the chosen language (en-GB: 24-hour clock). */
export function formatLocale(locale: string): string {
  const browser = typeof navigator !== 'undefined' ? navigator.language : '';
  return browser.toLowerCase().startsWith(locale.toLowerCase()) ? browser : locale;
}
