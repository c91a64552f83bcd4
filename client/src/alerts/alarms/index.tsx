import NotificationImportantIcon from '@mui/icons-material/NotificationImportant';
import { Route } from 'react-router';
import type { ResourceGroup } from '../../kit/group';
import { lazyPage } from '../../kit/lazy';
import { messages } from './i18n';
import { InboxIcon } from './InboxIcon';

const AlarmsPage = lazyPage(
  () => import('./AlarmsPage'),
  (m) => m.default,
);
const InboxPage = lazyPage(
  () => import('./InboxPage'),
  (m) => m.default,
);

/**
 * The alarms section of the menu, for everyone who sees a system: the fleet's active alarms (with
 * the history as a second tab, /alarm/history) and the notification inbox with its unread badge.
 */
export const alarms: ResourceGroup = {
  key: 'alarms',
  label: 'portal.menu.groups.alarms',
  resources: [
    { name: 'alarm', list: AlarmsPage, icon: NotificationImportantIcon, options: { label: 'portal.alarms.menu' } },
    { name: 'inbox', list: InboxPage, icon: InboxIcon, options: { label: 'portal.inbox.menu' } },
  ],
  routes: [<Route key="alarm-history" path="/alarm/history" element={<AlarmsPage />} />],
  messages,
};
