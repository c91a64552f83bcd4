import DashboardIcon from '@mui/icons-material/Dashboard';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import SettingsIcon from '@mui/icons-material/Settings';
import { ListSubheader } from '@mui/material';
import { Menu, useCanAccessResources, useSidebarState, useTranslate } from 'react-admin';
import type { ResourceGroup } from '../kit/group';
import { GROUPS } from '../resources';

/** One menu section: its title and the resources in it the user may list; nothing when none. */
function MenuGroup({ group }: { group: ResourceGroup }) {
  const translate = useTranslate();
  const [open] = useSidebarState();
  const names = group.resources.map((r) => r.name);
  const { canAccess, isPending } = useCanAccessResources({ action: 'list', resources: names });
  if (isPending || !canAccess || !names.some((n) => canAccess[n])) return null;
  return (
    <li role="none">
      {open && (
        <ListSubheader component="div" disableSticky sx={{ lineHeight: '32px', mt: 1, bgcolor: 'transparent' }}>
          {translate(group.label)}
        </ListSubheader>
      )}
      <ul role="group" aria-label={translate(group.label)} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {names
          .filter((n) => canAccess[n])
          .map((name) => (
            <Menu.ResourceItem key={name} name={name} />
          ))}
      </ul>
    </li>
  );
}

/** The side menu: home, the resources the user may list grouped by who uses them, preferences. */
export function PortalMenu() {
  return (
    <Menu>
      <Menu.DashboardItem primaryText="portal.menu.home" />
      <Menu.Item to="/dashboards" primaryText="portal.dashboards.menu" leftIcon={<DashboardIcon />} data-testid="menu-dashboards" />
      {GROUPS.map((g) => (
        <MenuGroup key={g.key} group={g} />
      ))}
      <Menu.Item to="/exports" primaryText="portal.menu.exports" leftIcon={<FileDownloadIcon />} />
      <Menu.Item to="/preferences" primaryText="portal.menu.preferences" leftIcon={<SettingsIcon />} />
    </Menu>
  );
}
