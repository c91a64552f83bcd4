import type { ResourceGroup } from '../kit/group';
import { messages } from './i18n';

/** The organisation section of the menu. */
export const organisation: ResourceGroup = {
  key: 'organisation',
  label: 'portal.menu.groups.organisation',
  resources: [],
  messages,
};
