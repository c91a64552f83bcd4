import CampaignIcon from '@mui/icons-material/Campaign';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import TuneIcon from '@mui/icons-material/Tune';
import type { ResourceGroup } from '../../kit/group';
import { lazyPage } from '../../kit/lazy';
import { ChannelLabel } from './channel-label';
import { messages } from './i18n';

// Each screen is its own chunk, loaded on first use: the shell stays small.
const ChannelCreate = lazyPage(
  () => import('./channels'),
  (m) => m.ChannelCreate,
);
const ChannelEdit = lazyPage(
  () => import('./channels'),
  (m) => m.ChannelEdit,
);
const ChannelList = lazyPage(
  () => import('./channels'),
  (m) => m.ChannelList,
);
const ChannelShow = lazyPage(
  () => import('./channels'),
  (m) => m.ChannelShow,
);
const TemplateCreate = lazyPage(
  () => import('./templates'),
  (m) => m.TemplateCreate,
);
const TemplateEdit = lazyPage(
  () => import('./templates'),
  (m) => m.TemplateEdit,
);
const TemplateList = lazyPage(
  () => import('./templates'),
  (m) => m.TemplateList,
);
const TriggerCreate = lazyPage(
  () => import('./triggers'),
  (m) => m.TriggerCreate,
);
const TriggerEdit = lazyPage(
  () => import('./triggers'),
  (m) => m.TriggerEdit,
);
const TriggerList = lazyPage(
  () => import('./triggers'),
  (m) => m.TriggerList,
);

/**
 * The events section of the menu: event templates (per device type), triggers (per system) and
 * notification channels (per company). Records only: the engine that fires them comes later.
 */
export const events: ResourceGroup = {
  key: 'events',
  label: 'portal.menu.groups.events',
  resources: [
    { name: 'notificationTemplateAssignment', list: TemplateList, edit: TemplateEdit, create: TemplateCreate, icon: TuneIcon, recordRepresentation: 'name' },
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
  ],
  messages,
};
