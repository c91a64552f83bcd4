import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import frenchMessages from 'ra-language-french';
import { en } from './en';
import { fr } from './fr';
import { isLocale, type Locale } from './locale';

const MESSAGES = {
  en: { ...englishMessages, ...en },
  fr: { ...frenchMessages, ...fr },
};

/** react-admin's strings (ra.*) and the portal's (portal.*), English and French, switchable at runtime. */
export function createI18nProvider(initial: Locale) {
  return polyglotI18nProvider((locale) => MESSAGES[isLocale(locale) ? locale : 'en'], initial, [
    { locale: 'en', name: en.portal.language.en },
    { locale: 'fr', name: fr.portal.language.fr },
  ]);
}
