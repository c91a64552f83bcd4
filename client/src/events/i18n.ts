import type { GroupMessages } from '../kit/group';

/** Strings of the events screens: react-admin's `resources.<name>.name|fields.<field>` and `portal.events.*`. */
export const messages: GroupMessages = {
  en: { resources: {}, portal: { events: {} } },
  fr: { resources: {}, portal: { events: {} } },
};
