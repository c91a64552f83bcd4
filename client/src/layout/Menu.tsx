import SettingsIcon from '@mui/icons-material/Settings';
import { Menu } from 'react-admin';

/** The side menu: home, the resources the user may list (canAccess), preferences. */
export function PortalMenu() {
  return (
    <Menu>
      <Menu.DashboardItem primaryText="portal.menu.home" />
      <Menu.ResourceItems />
      <Menu.Item to="/preferences" primaryText="portal.menu.preferences" leftIcon={<SettingsIcon />} />
    </Menu>
  );
}
