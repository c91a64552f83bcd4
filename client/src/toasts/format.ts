import { formatDateTime } from '../i18n/format';

/** triggeredAt shown in its own timezone (spec §3.2), e.g. "21/11/2026 14:03:05"; an unknown zone: the browser's. */
export function formatTriggeredAt(timestamp: Date | string | number, timezone: string, locale: string): string {
  const date = timestamp instanceof Date ? timestamp : new Date(timestamp);
  if (Number.isNaN(date.getTime())) return '';
  return formatDateTime(date, locale, { timeZone: timezone, seconds: true });
}
