import { formatTime } from '../i18n/format';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { FORGOT_PATH } from './account-api';
import { LanguageFooter } from './AccountCard';
import { PublicField } from './PublicField';
import { makeAccountTranslate } from './accounts-i18n';
import type { PasswordSetState } from './ResetPage';
import { type Locale, readLocale, writeLocale } from '../i18n/locale';
import { defaultTitle, useBrand } from '../theme/brand';
import { login, type LoginFailure } from '../session/auth-api';
import { nextAfterLogin, type LoginLocationState } from '../session/next-path';
import { primeSession } from '../session/primed';
import './login.css';

type FieldErrors = { email?: string; password?: string };

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * /auth/login: public, its own layout (no app shell, no react-admin, no MUI: it stays small).
 * Enter submits; the email field has the focus; after signing in, back to the page first asked
 * for (?next= or the router state the shell left).
 */
export default function LoginPage() {
  const brand = useBrand();
  const navigate = useNavigate();
  const location = useLocation();
  const [locale, setLocale] = useState<Locale>(readLocale);
  const t = useMemo(() => makeAccountTranslate(locale), [locale]);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<LoginFailure | null>(null);
  const [retryAt, setRetryAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [submitting, setSubmitting] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const reason = (location.state as LoginLocationState | null)?.reason;
  const passwordSet = (location.state as Partial<PasswordSetState> | null)?.accountNotice === 'password_set';
  const portalName = defaultTitle(brand);

  useEffect(() => {
    document.title = t('portal.login.page_title', { portal: portalName });
    document.documentElement.lang = locale;
  }, [t, portalName, locale]);

  useEffect(() => {
    document.documentElement.style.setProperty('--brand-primary', brand.colors.primary);
    document.documentElement.style.setProperty('--brand-secondary', brand.colors.secondary);
  }, [brand]);

  useEffect(() => emailRef.current?.focus(), []);

  // Countdown for "too many attempts".
  useEffect(() => {
    if (retryAt === null) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= retryAt) {
        setRetryAt(null);
        setFailure((f) => (f?.kind === 'too-many' ? null : f));
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [retryAt]);

  const chooseLocale = (next: Locale) => {
    setLocale(next);
    writeLocale(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || retryAt !== null) return;
    const errors: FieldErrors = {};
    if (!email.trim()) errors.email = 'portal.login.errors.email_required';
    else if (!EMAIL.test(email.trim())) errors.email = 'portal.login.errors.invalid';
    if (!password) errors.password = 'portal.login.errors.password_required';
    setFieldErrors(errors);
    if (errors.email || errors.password) {
      (errors.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setSubmitting(true);
    setFailure(null);
    const result = await login(email.trim(), password);
    setSubmitting(false);
    if (result.ok) {
      primeSession(result.context);
      void navigate(nextAfterLogin(location.search, location.state), { replace: true });
      return;
    }
    setFailure(result.failure);
    if (result.failure.kind === 'too-many') {
      const at = Date.now() + result.failure.retryAfterSeconds * 1000;
      setNow(Date.now());
      setRetryAt(at);
    }
    if (result.failure.kind === 'wrong-credentials') {
      setPassword('');
      passwordRef.current?.focus();
    }
  };

  const failureText = (f: LoginFailure): string => {
    switch (f.kind) {
      case 'wrong-credentials':
        return t('portal.login.errors.wrong_credentials');
      case 'inactive':
        return t('portal.login.errors.inactive');
      case 'too-many': {
        const at = retryAt ?? now + f.retryAfterSeconds * 1000;
        const seconds = Math.max(0, Math.ceil((at - now) / 1000));
        const wait = seconds < 120 ? t('portal.prefs.seconds', { n: seconds }) : t('portal.prefs.minutes', { n: Math.ceil(seconds / 60) });
        const time = formatTime(at, locale, { seconds: true });
        return t('portal.login.errors.too_many', { wait, time });
      }
      case 'invalid':
        return t('portal.login.errors.invalid');
      case 'network':
        return t('portal.login.errors.network');
      case 'server':
        return t('portal.login.errors.server', { status: f.status });
    }
  };

  return (
    <div className="login-page">
      <main className="login-card" aria-labelledby="login-heading">
        <header className="login-brand">
          <img className="login-logo" src={brand.logo_url} alt="" width={48} height={48} />
          <div>
            <div className="login-portal" data-testid="login-portal-name">
              {portalName}
            </div>
            <h1 id="login-heading">{t('portal.login.heading')}</h1>
          </div>
        </header>

        {reason && !failure && (
          <p className="login-notice" role="status" data-testid="login-notice" data-reason={reason}>
            {t(`portal.login.reasons.${reason}`, { _: t('portal.login.reasons.MISSING') })}
          </p>
        )}

        {passwordSet && !failure && (
          <p className="login-notice" role="status" data-testid="login-password-set">
            {t('portal.account.reset.done')}
          </p>
        )}

        {failure && (
          <p className="login-error" role="alert" data-testid="login-error" data-kind={failure.kind}>
            {failureText(failure)}
          </p>
        )}

        <form className="login-form" data-testid="login-form" noValidate onSubmit={submit}>
          <PublicField
            id="login-email"
            label={t('portal.login.email')}
            inputRef={emailRef}
            name="email"
            type="email"
            autoComplete="username"
            inputMode="email"
            value={email}
            onValue={setEmail}
            error={fieldErrors.email && t(fieldErrors.email)}
          />
          <PublicField
            id="login-password"
            label={t('portal.login.password')}
            inputRef={passwordRef}
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onValue={setPassword}
            error={fieldErrors.password && t(fieldErrors.password)}
          />

          <button type="submit" className="login-submit" disabled={submitting || retryAt !== null} data-testid="login-submit">
            {submitting ? t('portal.login.submitting') : t('portal.login.submit')}
          </button>
        </form>

        <p className="account-links">
          <Link to={FORGOT_PATH} data-testid="login-forgot">
            {t('portal.account.forgot_link')}
          </Link>
        </p>

        <LanguageFooter t={t} locale={locale} choose={chooseLocale} idPrefix="login" />
      </main>
    </div>
  );
}
