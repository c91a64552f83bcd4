import CampaignIcon from '@mui/icons-material/Campaign';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import TuneIcon from '@mui/icons-material/Tune';
import type { ResourceGroup } from '../kit/group';
import { ChannelCreate, ChannelEdit, ChannelList } from './channels';
import { messages } from './i18n';
import { TemplateCreate, TemplateEdit, TemplateList } from './templates';
import { TriggerCreate, TriggerEdit, TriggerList } from './triggers';

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
    { name: 'notificationChannel', list: ChannelList, edit: ChannelEdit, create: ChannelCreate, icon: CampaignIcon, recordRepresentation: 'source' },
  ],
  messages,
};
