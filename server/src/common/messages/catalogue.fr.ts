import { PLATFORM_FR } from './fr/platform.fr';
import { CONTROL_FR } from './fr/control.fr';
import { RECORDS_FR } from './fr/records.fr';
import { EXPORTS_FR } from './fr/exports.fr';
import { ALERTS_FR } from './fr/alerts.fr';
import { SYSTEMS_FR } from './fr/systems.fr';
import { BUDGETS_FR } from './fr/budgets.fr';

export { FRENCH_PHRASES } from './fr/phrases.fr';

/**
 * Server messages in French: English message (or template, `{name}` for a variable part) →
 * French. Every message the server can answer has an entry (test/messages/catalogue.spec.ts walks
 * the sources and fails on a missing one). Keep the placeholders of the English key in the French
 * text. Grouped by the folder the message comes from, one file per group under fr/ (spread here in
 * this order).
 */
export const FRENCH: Record<string, string> = {
  ...PLATFORM_FR,
  ...CONTROL_FR,
  ...RECORDS_FR,
  ...EXPORTS_FR,
  ...ALERTS_FR,
  ...SYSTEMS_FR,
  ...BUDGETS_FR,
};
