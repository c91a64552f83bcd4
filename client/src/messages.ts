import { messages as admin } from './admin/i18n';
import { messages as alerts } from './alerts/i18n';
import { messages as catalogue } from './catalogue/i18n';
import { messages as control } from './control/i18n';
import { messages as dashboards } from './dashboards/i18n';
import { messages as exportsMessages } from './exports/i18n';
import { messages as fleet } from './fleet/i18n';
import { messages as home } from './home/i18n';
import type { GroupMessages } from './kit/group';
import { messages as organisation } from './organisation/i18n';
import { messages as kit } from './kit/i18n';
import { messages as status } from './status/i18n';
import { messages as accounts } from './login/accounts-i18n';

/** Messages of the back-office screens, per group (imported without the screens themselves). */
export const GROUP_MESSAGES: GroupMessages[] = [
  kit,
  organisation,
  fleet,
  alerts,
  catalogue,
  admin,
  control,
  status,
  home,
  dashboards,
  exportsMessages,
  accounts,
];
