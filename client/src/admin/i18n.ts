import type { GroupMessages } from '../kit/group';

/** Strings of the admin screens: react-admin's `resources.<name>.name|fields.<field>` and `portal.admin.*`. */
export const messages: GroupMessages = {
  en: { resources: {}, portal: { admin: {} } },
  fr: { resources: {}, portal: { admin: {} } },
};
