import { useMemo } from 'react';
import { useLocaleState } from 'react-admin';
import { formatDate, formatDateTime, formatNumber, formatRelative, formatTime, intlLocale, type DateInput, type DateOptions } from './format';

/** The format helpers bound to the language of the screen (react-admin's locale state). */
export function useFormat() {
  const [locale] = useLocaleState();
  return useMemo(() => {
    const l = locale || 'en';
    return {
      locale: l,
      /** The Intl tag (the browser's English variant for 'en'). */
      tag: intlLocale(l),
      dateTime: (value: DateInput, options?: DateOptions) => formatDateTime(value, l, options),
      date: (value: DateInput, options?: Pick<DateOptions, 'timeZone'>) => formatDate(value, l, options),
      time: (value: DateInput, options?: DateOptions) => formatTime(value, l, options),
      number: (value: number | null | undefined, options?: Intl.NumberFormatOptions) => formatNumber(value, l, options),
      relative: (value: DateInput, now: number) => formatRelative(value, now, l),
    };
  }, [locale]);
}
