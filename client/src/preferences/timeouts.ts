import { TOAST_DEFAULT_TIMEOUT_MS, TOAST_TIMEOUT_CHOICES_MS } from '../../../shared/common/spec-constants';
import type { Translate } from '../i18n/translate';

/** A toast timeout as a person reads it: none, 5 s … 30 s, 1 min … 30 min, 1 h. */
export function timeoutLabel(ms: number | null, translate: Translate): string {
  if (ms === null) return translate('portal.prefs.timeout_none');
  if (ms < 60_000) return translate('portal.prefs.seconds', { n: ms / 1000 });
  if (ms < 3_600_000) return translate('portal.prefs.minutes', { n: ms / 60_000 });
  return translate('portal.prefs.hours', { n: ms / 3_600_000 });
}

/** Select values are strings: 'none' for null. */
export const timeoutKey = (ms: number | null): string => (ms === null ? 'none' : String(ms));
export const timeoutFromKey = (key: string): number | null => (key === 'none' ? null : Number(key));

export const TIMEOUT_CHOICES = TOAST_TIMEOUT_CHOICES_MS;
export const DEFAULT_TIMEOUT = TOAST_DEFAULT_TIMEOUT_MS;
