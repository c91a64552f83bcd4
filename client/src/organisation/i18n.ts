import type { GroupMessages } from '../kit/group';

/** Strings of the organisation screens: react-admin's `resources.<name>.name|fields.<field>` and `portal.organisation.*`. */
export const messages: GroupMessages = {
  en: { resources: {}, portal: { organisation: {} } },
  fr: { resources: {}, portal: { organisation: {} } },
};
