import type { GroupMessages } from '../kit/group';

/** Strings of the catalogue screens: react-admin's `resources.<name>.name|fields.<field>` and `portal.catalogue.*`. */
export const messages: GroupMessages = {
  en: { resources: {}, portal: { catalogue: {} } },
  fr: { resources: {}, portal: { catalogue: {} } },
};
