import CampaignIcon from '@mui/icons-material/Campaign';
import NotificationImportantIcon from '@mui/icons-material/NotificationImportant';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import TuneIcon from '@mui/icons-material/Tune';
import { Route } from 'react-router';
import type { ResourceGroup } from '../kit/group';
import { lazyPage } from '../kit/lazy';
import { InboxIcon } from './alarms/InboxIcon';
import { messages } from './i18n';
import { ChannelLabel } from './setup/channel-label';

// Each screen is its own chunk, loaded on first use: the shell stays small.
const AlarmsPage = lazyPage(
  () => import('./alarms/AlarmsPage'),
  (m) => m.default,
);
const InboxPage = lazyPage(
  () => import('./alarms/InboxPage'),
  (m) => m.default,
);
const ChannelCreate = lazyPage(
  () => import('./setup/channels'),
  (m) => m.ChannelCreate,
);
const ChannelEdit = lazyPage(
  () => import('./setup/channels'),
  (m) => m.ChannelEdit,
);
const ChannelList = lazyPage(
  () => import('./setup/channels'),
  (m) => m.ChannelList,
);
const ChannelShow = lazyPage(
  () => import('./setup/channels'),
  (m) => m.ChannelShow,
);
const TemplateCreate = lazyPage(
  () => import('./setup/templates'),
  (m) => m.TemplateCreate,
);
const TemplateEdit = lazyPage(
  () => import('./setup/templates'),
  (m) => m.TemplateEdit,
);
const TemplateList = lazyPage(
  () => import('./setup/templates'),
  (m) => m.TemplateList,
);
const TriggerCreate = lazyPage(
  () => import('./setup/triggers'),
  (m) => m.TriggerCreate,
);
const TriggerEdit = lazyPage(
  () => import('./setup/triggers'),
  (m) => m.TriggerEdit,
);
const TriggerList = lazyPage(
  () => import('./setup/triggers'),
  (m) => m.TriggerList,
);

/**
 * The Alerts section of the menu. What people watch first (alerts/alarms): the fleet's active
 * alarms (with the history as a second tab, /alarm/history) and the notification inbox with its
 * unread badge. Then the setup (alerts/setup): triggers (per system, with their rule and status),
 * notification channels (per company) and the templates that make triggers (per device type).
 * Resource names (the tRPC routers) and URLs are the ones they always had.
 */
export const alerts: ResourceGroup = {
  key: 'alerts',
  label: 'portal.menu.groups.alerts',
  resources: [
    { name: 'alarm', list: AlarmsPage, icon: NotificationImportantIcon, options: { label: 'portal.alarms.menu' } },
    { name: 'inbox', list: InboxPage, icon: InboxIcon, options: { label: 'portal.inbox.menu' } },
    { name: 'notificationTrigger', list: TriggerList, edit: TriggerEdit, create: TriggerCreate, icon: NotificationsActiveIcon, recordRepresentation: 'name' },
    {
      name: 'notificationChannel',
      list: ChannelList,
      show: ChannelShow,
      edit: ChannelEdit,
      create: ChannelCreate,
      icon: CampaignIcon,
      recordRepresentation: <ChannelLabel />,
    },
    { name: 'notificationTemplateAssignment', list: TemplateList, edit: TemplateEdit, create: TemplateCreate, icon: TuneIcon, recordRepresentation: 'name' },
  ],
  routes: [<Route key="alarm-history" path="/alarm/history" element={<AlarmsPage />} />],
  messages,
};
