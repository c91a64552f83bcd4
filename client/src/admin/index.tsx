import type { ResourceGroup } from '../kit/group';
import { messages } from './i18n';

/** The admin section of the menu. */
export const admin: ResourceGroup = {
  key: 'admin',
  label: 'portal.menu.groups.admin',
  resources: [],
  messages,
};
