import type { ResourceGroup } from '../kit/group';
import { messages } from './i18n';

/** The catalogue section of the menu. */
export const catalogue: ResourceGroup = {
  key: 'catalogue',
  label: 'portal.menu.groups.catalogue',
  resources: [],
  messages,
};
