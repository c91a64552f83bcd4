import { Box, Button, Card, CardContent, FormControl, FormControlLabel, FormHelperText, InputLabel, MenuItem, Select, Switch, Typography } from '@mui/material';
import { useState } from 'react';
import { Title, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { LOCALES, type Locale } from '../i18n/locale';
import { useChooseLanguage } from '../session/useLanguage';
import { usePageTitle } from '../theme/brand';
import { useSession, useSessionManager } from '../session/SessionProvider';
import { messageOf } from '../trpc';
import { useUpdatePreferences } from './api';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { DEFAULT_TIMEOUT, TIMEOUT_CHOICES, timeoutFromKey, timeoutKey, timeoutLabel } from './timeouts';

/**
 * /preferences: the user's toast preferences (user.meta, saved with user.updatePreferences; the
 * server re-issues the cookie) and the language (stored with the user and on this device).
 */
export default function PreferencesPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const manager = useSessionManager();
  const { context } = useSession();
  const [locale] = useLocaleState();
  const chooseLanguage = useChooseLanguage();
  const title = translate('portal.prefs.title');
  usePageTitle(title);

  const current = context?.user.meta.preferences?.toast_notifications;
  const [disabled, setDisabled] = useState<boolean>(current?.toast_notifications_disabled ?? false);
  const [timeout, setTimeoutMs] = useState<number | null>(
    current?.toast_notification_timeout === undefined ? DEFAULT_TIMEOUT : current.toast_notification_timeout,
  );
  const [saving, setSaving] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const updatePreferences = useUpdatePreferences();

  const save = async () => {
    setSaving(true);
    try {
      const next = await updatePreferences.mutateAsync({
        toast_notifications_disabled: disabled,
        toast_notification_timeout: timeout,
      });
      manager.replaceContext(next);
      notify('portal.prefs.saved', { type: 'success' });
    } catch (error) {
      notify('portal.prefs.save_failed', { type: 'error', messageArgs: { message: messageOf(error) } });
    } finally {
      setSaving(false);
    }
  };

  const chooseLocale = (next: Locale) => void chooseLanguage(next);

  return (
    <Box sx={{ mt: 2, display: 'grid', gap: 2, maxWidth: 640 }} data-testid="preferences">
      <Title title={title} />
      <Card>
        <CardContent
          component="form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
          sx={{ display: 'grid', gap: 2 }}
        >
          <Typography variant="h6" component="h1">
            {translate('portal.prefs.toasts')}
          </Typography>
          <FormControl>
            <FormControlLabel
              control={
                <Switch
                  checked={disabled}
                  onChange={(e) => setDisabled(e.target.checked)}
                  slotProps={{ input: { 'data-testid': 'prefs-disabled' } as object }}
                />
              }
              label={translate('portal.prefs.disabled')}
            />
            <FormHelperText>{translate('portal.prefs.disabled_help')}</FormHelperText>
          </FormControl>
          <FormControl fullWidth disabled={disabled}>
            <InputLabel id="prefs-timeout-label">{translate('portal.prefs.timeout')}</InputLabel>
            <Select
              labelId="prefs-timeout-label"
              label={translate('portal.prefs.timeout')}
              value={timeoutKey(timeout)}
              onChange={(e) => setTimeoutMs(timeoutFromKey(String(e.target.value)))}
              data-testid="prefs-timeout"
            >
              {TIMEOUT_CHOICES.map((ms) => (
                <MenuItem key={timeoutKey(ms)} value={timeoutKey(ms)} data-testid={`prefs-timeout-${timeoutKey(ms)}`}>
                  {timeoutLabel(ms, translate)}
                </MenuItem>
              ))}
            </Select>
            <FormHelperText>{translate('portal.prefs.timeout_help')}</FormHelperText>
          </FormControl>
          <Box>
            <Button type="submit" variant="contained" disabled={saving} data-testid="prefs-save">
              {translate('portal.prefs.save')}
            </Button>
          </Box>
        </CardContent>
      </Card>

      <Card>
        <CardContent sx={{ display: 'grid', gap: 2 }}>
          <Typography variant="h6" component="h2">
            {translate('portal.prefs.language')}
          </Typography>
          <FormControl fullWidth>
            <InputLabel id="prefs-language-label">{translate('portal.prefs.language')}</InputLabel>
            <Select
              labelId="prefs-language-label"
              label={translate('portal.prefs.language')}
              value={locale}
              onChange={(e) => chooseLocale(e.target.value as Locale)}
              data-testid="prefs-language"
            >
              {LOCALES.map((l) => (
                <MenuItem key={l} value={l} lang={l}>
                  {translate(`portal.language.${l}`)}
                </MenuItem>
              ))}
            </Select>
            <FormHelperText>{translate('portal.prefs.language_help')}</FormHelperText>
          </FormControl>
        </CardContent>
      </Card>

      <Card>
        <CardContent sx={{ display: 'grid', gap: 2, justifyItems: 'start' }}>
          <Typography variant="h6" component="h2">
            {translate('portal.account.change.title')}
          </Typography>
          <Button variant="outlined" onClick={() => setChangingPassword(true)} data-testid="change-password">
            {translate('portal.account.change.button')}
          </Button>
          <ChangePasswordDialog open={changingPassword} onClose={() => setChangingPassword(false)} />
        </CardContent>
      </Card>
    </Box>
  );
}
