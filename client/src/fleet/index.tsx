import systems from '../systems';
import type { ResourceGroup } from '../kit/group';
import { messages } from './i18n';

/** The fleet section of the menu: sites, systems, sharing, metadata, controllers, devices, data processors. */
export const fleet: ResourceGroup = {
  key: 'fleet',
  label: 'portal.menu.groups.fleet',
  resources: [{ name: 'system', ...systems }],
  messages,
};
