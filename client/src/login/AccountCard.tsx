import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { LOCALES, type Locale, readLocale, writeLocale } from '../i18n/locale';
import type { Translate } from '../i18n/translate';
import { defaultTitle, useBrand } from '../theme/brand';
import { makeAccountTranslate } from './accounts-i18n';
import './login.css';

/** The language of a public account page (this device's choice, else the browser's) and its translator. */
export function usePublicLocale(): { locale: Locale; t: Translate; choose: (l: Locale) => void } {
  const [locale, setLocale] = useState<Locale>(readLocale);
  const t = useMemo(() => makeAccountTranslate(locale), [locale]);
  const choose = (next: Locale) => {
    setLocale(next);
    writeLocale(next);
  };
  return { locale, t, choose };
}

/**
 * The card the public account pages share with the login: brand, heading, content, languages.
 * Plain React and the login's CSS: it stays in the login chunk.
 */
export function AccountCard(props: { t: Translate; locale: Locale; choose: (l: Locale) => void; titleKey: string; heading: string; children: ReactNode }) {
  const { t, locale, choose, titleKey, heading, children } = props;
  const brand = useBrand();
  const portalName = defaultTitle(brand);
  useEffect(() => {
    document.title = t(titleKey, { portal: portalName });
    document.documentElement.lang = locale;
  }, [t, titleKey, portalName, locale]);
  useEffect(() => {
    document.documentElement.style.setProperty('--brand-primary', brand.colors.primary);
    document.documentElement.style.setProperty('--brand-secondary', brand.colors.secondary);
  }, [brand]);
  return (
    <div className="login-page">
      <main className="login-card" aria-labelledby="account-heading">
        <header className="login-brand">
          <img className="login-logo" src={brand.logo_url} alt="" width={48} height={48} />
          <div>
            <div className="login-portal">{portalName}</div>
            <h1 id="account-heading">{heading}</h1>
          </div>
        </header>
        {children}
        <LanguageFooter t={t} locale={locale} choose={choose} idPrefix="account" />
      </main>
    </div>
  );
}

/** The hint under a new password: its rough strength and the rule. */
export function StrengthHint({ t, level, id }: { t: Translate; level: string | null; id: string }) {
  return (
    <span id={id} className="account-hint" aria-live="polite" data-testid="password-strength" data-level={level ?? ''}>
      {level ? `${t('portal.account.strength.label', { level: t(`portal.account.strength.${level}`) })}. ` : ''}
      {t('portal.account.strength.hint')}
    </span>
  );
}

/** The language buttons at the foot of the login and the public account pages. */
export function LanguageFooter(props: { t: Translate; locale: Locale; choose: (l: Locale) => void; idPrefix: string }) {
  const { t, locale, choose, idPrefix } = props;
  return (
    <footer className="login-footer">
      <span id={`${idPrefix}-language-label`}>{t('portal.language.label')}</span>
      <div role="group" aria-labelledby={`${idPrefix}-language-label`} className="login-languages">
        {LOCALES.map((l) => (
          <button key={l} type="button" lang={l} aria-pressed={l === locale} onClick={() => choose(l)} data-testid={`${idPrefix}-language-${l}`}>
            {t(`portal.language.${l}`)}
          </button>
        ))}
      </div>
    </footer>
  );
}
