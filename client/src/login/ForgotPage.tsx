import { PublicField } from './PublicField';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { LOGIN_PATH } from '../../../shared/common/spec-constants';
import { requestReset } from './account-api';
import { AccountCard, usePublicLocale } from './AccountCard';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * /auth/forgot: public. The email of the account; whatever the address, the same neutral
 * confirmation (the server answers the same for any address, and mails only an active account).
 */
export default function ForgotPage() {
  const { locale, t, choose } = usePublicLocale();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);

  useEffect(() => emailRef.current?.focus(), [sent]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const value = email.trim();
    const problem = !value ? 'portal.account.errors.email_required' : !EMAIL.test(value) ? 'portal.account.errors.email_invalid' : null;
    setError(problem);
    if (problem) {
      emailRef.current?.focus();
      return;
    }
    setSubmitting(true);
    setFailure(null);
    const answer = await requestReset(value, locale);
    setSubmitting(false);
    if (answer.ok) setSent(true);
    else if (answer.kind === 'invalid') setError('portal.account.errors.email_invalid');
    else setFailure(answer.kind === 'network' ? t('portal.account.errors.network') : t('portal.account.errors.server', { status: answer.status ?? '' }));
  };

  return (
    <AccountCard t={t} locale={locale} choose={choose} titleKey="portal.account.forgot.page_title" heading={t('portal.account.forgot.heading')}>
      {sent ? (
        <>
          <p className="login-notice" role="status" data-testid="forgot-sent">
            {t('portal.account.forgot.sent')}
          </p>
          <p className="account-links">
            <button type="button" className="login-submit" onClick={() => setSent(false)} data-testid="forgot-again">
              {t('portal.account.forgot.again')}
            </button>
          </p>
        </>
      ) : (
        <>
          <p className="account-intro">{t('portal.account.forgot.intro')}</p>
          {failure && (
            <p className="login-error" role="alert" data-testid="forgot-error">
              {failure}
            </p>
          )}
          <form className="login-form" noValidate onSubmit={submit} data-testid="forgot-form">
            <PublicField
              id="forgot-email"
              label={t('portal.login.email')}
              inputRef={emailRef}
              name="email"
              type="email"
              autoComplete="username"
              inputMode="email"
              value={email}
              onValue={setEmail}
              error={error ? t(error) : undefined}
            />
            <button type="submit" className="login-submit" disabled={submitting} data-testid="forgot-submit">
              {submitting ? t('portal.account.forgot.submitting') : t('portal.account.forgot.submit')}
            </button>
          </form>
        </>
      )}
      <p className="account-links">
        <Link to={LOGIN_PATH} data-testid="back-to-login">
          {t('portal.account.back_to_login')}
        </Link>
      </p>
    </AccountCard>
  );
}
