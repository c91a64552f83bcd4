import type { ResourceGroup } from '../kit/group';
import { messages } from './i18n';

/** The events section of the menu. */
export const events: ResourceGroup = {
  key: 'events',
  label: 'portal.menu.groups.events',
  resources: [],
  messages,
};
