import type { GroupMessages } from '../kit/group';

/** Strings of the fleet screens: react-admin's `resources.<name>.name|fields.<field>` and `portal.fleet.*`. */
export const messages: GroupMessages = {
  en: { resources: {}, portal: { fleet: {} } },
  fr: { resources: {}, portal: { fleet: {} } },
};
