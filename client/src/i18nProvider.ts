import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import frenchMessages from 'ra-language-french';
import { mergeMessages } from './kit/group';
import { GROUP_MESSAGES } from './messages';
import { en } from './i18n/en';
import { fr } from './i18n/fr';
import { isLocale, type Locale } from './i18n/locale';

const MESSAGES = {
  en: mergeMessages({ ...englishMessages, ...en }, ...GROUP_MESSAGES.map((m) => m.en)),
  fr: mergeMessages({ ...frenchMessages, ...fr }, ...GROUP_MESSAGES.map((m) => m.fr)),
};

/** react-admin's strings (ra.*), the portal's (portal.*) and the groups' screens, English and French. */
export function createI18nProvider(initial: Locale) {
  return polyglotI18nProvider((locale) => MESSAGES[isLocale(locale) ? locale : 'en'], initial, [
    { locale: 'en', name: en.portal.language.en },
    { locale: 'fr', name: fr.portal.language.fr },
  ]);
}
