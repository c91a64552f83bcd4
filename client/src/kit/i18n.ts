import type { GroupMessages } from './group';

/** Strings of the shared back-office parts (import dialog, JSON editor, …): `portal.kit.*`. */
export const messages: GroupMessages = {
  en: { portal: { kit: {} } },
  fr: { portal: { kit: {} } },
};
