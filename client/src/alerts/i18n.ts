import { type GroupMessages, mergeMessages } from '../kit/group';
import { messages as alarms } from './alarms/i18n';
import { messages as setup } from './setup/i18n';

/** Strings of the Alerts section: its alarm screens (alarms/i18n.ts) and its setup screens (setup/i18n.ts). */
export const messages: GroupMessages = {
  en: mergeMessages(alarms.en, setup.en),
  fr: mergeMessages(alarms.fr, setup.fr),
};
