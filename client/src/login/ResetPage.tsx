import { PublicField } from './PublicField';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { LOGIN_PATH } from '../../../shared/common/spec-constants';
import { completeReset, FORGOT_PATH } from './account-api';
import { passwordStrength } from './accounts-i18n';
import { AccountCard, StrengthHint, usePublicLocale } from './AccountCard';

const MIN = 8;
const MAX = 200;

/** What the login page shows after a password was set here (router state). */
export interface PasswordSetState {
  accountNotice: 'password_set';
}

/**
 * /auth/reset?token=…: public, from an invitation or a reset mail. The new password twice, its
 * strength, the errors; on success back to the login page with a message (nobody is signed in
 * here: the person signs in with the new password). A used, expired or replaced link says so and
 * offers a new one.
 */
export default function ResetPage() {
  const { locale, t, choose } = usePublicLocale();
  const navigate = useNavigate();
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const token = params.get('token') ?? '';
  const welcome = params.get('welcome') === '1';
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<{ password?: string; repeat?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [linkDead, setLinkDead] = useState(!token);
  const [submitting, setSubmitting] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const repeatRef = useRef<HTMLInputElement>(null);

  useEffect(() => passwordRef.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const next: { password?: string; repeat?: string } = {};
    if (password.length < MIN) next.password = t('portal.account.errors.too_short');
    else if (password.length > MAX) next.password = t('portal.account.errors.too_long');
    if (!next.password && repeat !== password) next.repeat = t('portal.account.errors.mismatch');
    setErrors(next);
    if (next.password || next.repeat) {
      (next.password ? passwordRef : repeatRef).current?.focus();
      return;
    }
    setSubmitting(true);
    setFailure(null);
    const answer = await completeReset(token, password, locale);
    setSubmitting(false);
    if (answer.ok) {
      void navigate(LOGIN_PATH, { replace: true, state: { accountNotice: 'password_set' } satisfies PasswordSetState });
      return;
    }
    if (answer.kind === 'invalid-link') setLinkDead(true);
    else if (answer.kind === 'invalid') setErrors({ password: answer.fieldErrors?.[0]?.message ?? answer.message });
    else setFailure(answer.kind === 'network' ? t('portal.account.errors.network') : t('portal.account.errors.server', { status: answer.status ?? '' }));
  };

  const heading = welcome ? t('portal.account.reset.welcome_heading') : t('portal.account.reset.heading');
  return (
    <AccountCard t={t} locale={locale} choose={choose} titleKey="portal.account.reset.page_title" heading={heading}>
      {linkDead ? (
        <>
          <p className="login-error" role="alert" data-testid="reset-invalid-link">
            {token ? t('portal.account.reset.invalid_link') : t('portal.account.reset.no_token')}
          </p>
          <p className="account-links">
            <Link to={FORGOT_PATH} data-testid="reset-ask-new">
              {t('portal.account.reset.ask_new')}
            </Link>
          </p>
        </>
      ) : (
        <>
          {failure && (
            <p className="login-error" role="alert" data-testid="reset-error">
              {failure}
            </p>
          )}
          <form className="login-form" noValidate onSubmit={submit} data-testid="reset-form">
            <PublicField
              id="reset-password"
              label={t('portal.account.reset.new_password')}
              inputRef={passwordRef}
              type="password"
              autoComplete="new-password"
              value={password}
              maxLength={MAX}
              onValue={setPassword}
              error={errors.password}
              describedBy="reset-password-hint"
            />
            <StrengthHint t={t} level={password ? passwordStrength(password) : null} id="reset-password-hint" />
            <PublicField
              id="reset-repeat"
              label={t('portal.account.reset.repeat')}
              inputRef={repeatRef}
              type="password"
              autoComplete="new-password"
              value={repeat}
              maxLength={MAX}
              onValue={setRepeat}
              error={errors.repeat}
            />
            <button type="submit" className="login-submit" disabled={submitting} data-testid="reset-submit">
              {submitting ? t('portal.account.reset.submitting') : t('portal.account.reset.submit')}
            </button>
          </form>
        </>
      )}
      <p className="account-links">
        <Link to={LOGIN_PATH}>{t('portal.account.back_to_login')}</Link>
      </p>
    </AccountCard>
  );
}
