import CheckIcon from '@mui/icons-material/Check';
import LogoutIcon from '@mui/icons-material/Logout';
import SettingsIcon from '@mui/icons-material/Settings';
import { Box, ListItemIcon, ListItemText, ListSubheader, MenuItem, Typography } from '@mui/material';
import { forwardRef } from 'react';
import { AppBar, LoadingIndicator, TitlePortal, UserMenu, useGetIdentity, useLocaleState, useLogout, useTranslate, useUserMenu } from 'react-admin';
import { Link } from 'react-router';
import { LOCALES, type Locale } from '../i18n/locale';
import { useChooseLanguage } from '../session/useLanguage';
import { defaultTitle, useBrand } from '../theme/brand';

const PreferencesItem = forwardRef<HTMLAnchorElement>(function PreferencesItem(_props, ref) {
  const translate = useTranslate();
  const userMenu = useUserMenu();
  return (
    <MenuItem ref={ref} component={Link} to="/preferences" onClick={() => userMenu?.onClose()} data-testid="menu-preferences">
      <ListItemIcon>
        <SettingsIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('portal.menu.preferences')}</ListItemText>
    </MenuItem>
  );
});

function LanguageItems() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const chooseLanguage = useChooseLanguage();
  const userMenu = useUserMenu();
  const choose = (next: Locale) => {
    userMenu?.onClose();
    void chooseLanguage(next);
  };
  return (
    <>
      <ListSubheader sx={{ lineHeight: '32px' }}>{translate('portal.language.label')}</ListSubheader>
      {LOCALES.map((l) => (
        <MenuItem key={l} lang={l} selected={l === locale} onClick={() => choose(l)} data-testid={`menu-language-${l}`}>
          <ListItemIcon>{l === locale ? <CheckIcon fontSize="small" /> : null}</ListItemIcon>
          <ListItemText>{translate(`portal.language.${l}`)}</ListItemText>
        </MenuItem>
      ))}
    </>
  );
}

const SignOutItem = forwardRef<HTMLLIElement>(function SignOutItem(_props, ref) {
  const translate = useTranslate();
  const logout = useLogout();
  return (
    <MenuItem ref={ref} onClick={() => void logout()} data-testid="menu-sign-out">
      <ListItemIcon>
        <LogoutIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('portal.menu.sign_out')}</ListItemText>
    </MenuItem>
  );
});

function PortalUserMenu() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  // The button shows the user's name on wide screens: its accessible name starts with that text.
  const label = identity?.fullName ? `${identity.fullName} (${translate('portal.menu.account')})` : translate('portal.menu.account');
  return (
    <UserMenu label={label}>
      <PreferencesItem />
      <LanguageItems />
      <SignOutItem />
    </UserMenu>
  );
}

function BrandMark() {
  const brand = useBrand();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mr: 2, minWidth: 0 }} data-testid="brand-mark">
      <Box
        component="img"
        src={brand.logo_url}
        alt=""
        sx={{ width: 28, height: 28, borderRadius: '4px', background: '#fff', p: '2px', boxSizing: 'border-box' }}
      />
      <Typography variant="subtitle1" component="span" sx={{ fontWeight: 600, whiteSpace: 'nowrap', display: { xs: 'none', sm: 'inline' } }}>
        {defaultTitle(brand)}
      </Typography>
    </Box>
  );
}

/** The app bar: brand, page title, loading indicator and the user menu (preferences, language, sign out). */
export function PortalAppBar() {
  return (
    <AppBar color="primary" userMenu={<PortalUserMenu />} toolbar={<LoadingIndicator />}>
      <BrandMark />
      <TitlePortal sx={{ opacity: 0.85 }} />
    </AppBar>
  );
}
