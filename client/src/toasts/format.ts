/** triggeredAt shown in its own timezone (spec §3.2), e.g. "21 Nov 2026, 14:03:05". */
export function formatTriggeredAt(timestamp: Date | string | number, timezone: string, locale: string): string {
  const date = timestamp instanceof Date ? timestamp : new Date(timestamp);
  if (Number.isNaN(date.getTime())) return '';
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'medium' };
  try {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone: timezone }).format(date);
  } catch {
    // An unknown IANA name: show the instant in the browser's zone rather than nothing.
    return new Intl.DateTimeFormat(locale, options).format(date);
  }
}
