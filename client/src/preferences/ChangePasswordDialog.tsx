import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { passwordStrength } from '../login/accounts-i18n';
import { httpStatusOf, messageOf } from '../trpc';
import { fieldErrorsOf, useChangePassword } from './api';

const MIN = 8;
const MAX = 200;
type Field = 'current_password' | 'new_password' | 'repeat';

/**
 * "Change password": the current one, the new one twice (`account.changePassword`). A wrong current
 * password is shown on its field; on success this session goes on and the others end.
 */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [values, setValues] = useState<Record<Field, string>>({ current_password: '', new_password: '', repeat: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [saving, setSaving] = useState(false);
  const changePassword = useChangePassword();

  const close = () => {
    setValues({ current_password: '', new_password: '', repeat: '' });
    setErrors({});
    onClose();
  };
  const set = (field: Field) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: Partial<Record<Field, string>> = {};
    if (!values.current_password) next.current_password = translate('portal.login.errors.password_required');
    if (values.new_password.length < MIN) next.new_password = translate('portal.account.errors.too_short');
    else if (values.new_password.length > MAX) next.new_password = translate('portal.account.errors.too_long');
    if (!next.new_password && values.repeat !== values.new_password) next.repeat = translate('portal.account.errors.mismatch');
    setErrors(next);
    if (Object.keys(next).length) return;
    setSaving(true);
    try {
      await changePassword.mutateAsync({ current_password: values.current_password, new_password: values.new_password });
      notify('portal.account.change.done', { type: 'success' });
      close();
    } catch (error) {
      const fields = fieldErrorsOf<Field>(error);
      if (fields.current_password) fields.current_password = translate('portal.account.change.wrong_current');
      if (Object.keys(fields).length) setErrors(fields);
      else
        notify(httpStatusOf(error) === 429 ? messageOf(error) : translate('portal.account.errors.server', { status: httpStatusOf(error) }), { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const strength = values.new_password ? passwordStrength(values.new_password) : null;
  const hint = `${strength ? `${translate('portal.account.strength.label', { level: translate(`portal.account.strength.${strength}`) })}. ` : ''}${translate('portal.account.strength.hint')}`;
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs" aria-labelledby="change-password-title">
      <form onSubmit={submit} noValidate data-testid="change-password-form">
        <DialogTitle id="change-password-title">{translate('portal.account.change.title')}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          <TextField
            label={translate('portal.account.change.current')}
            type="password"
            autoComplete="current-password"
            value={values.current_password}
            onChange={set('current_password')}
            error={!!errors.current_password}
            helperText={errors.current_password}
            autoFocus
            slotProps={{ htmlInput: { 'data-testid': 'change-current', maxLength: MAX } }}
          />
          <TextField
            label={translate('portal.account.change.new_password')}
            type="password"
            autoComplete="new-password"
            value={values.new_password}
            onChange={set('new_password')}
            error={!!errors.new_password}
            helperText={errors.new_password ?? hint}
            slotProps={{ htmlInput: { 'data-testid': 'change-new', maxLength: MAX } }}
          />
          <TextField
            label={translate('portal.account.change.repeat')}
            type="password"
            autoComplete="new-password"
            value={values.repeat}
            onChange={set('repeat')}
            error={!!errors.repeat}
            helperText={errors.repeat}
            slotProps={{ htmlInput: { 'data-testid': 'change-repeat', maxLength: MAX } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{translate('portal.account.change.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={saving} data-testid="change-submit">
            {translate('portal.account.change.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
