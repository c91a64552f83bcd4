import { DateField as RaDateField, NumberField as RaNumberField, useLocaleState, type DateFieldProps, type NumberFieldProps } from 'react-admin';
import { DATE_OPTIONS, intlLocale, timeOptions } from '../i18n/format';

/**
 * react-admin's DateField and NumberField with the screen's language given centrally: the
 * portal's screens import these (a class test, i18n/format.spec.ts, fails on react-admin's own),
 * so a date reads `23/11/2026 14:05` and a number `1 234,5` in French, the browser's English
 * variant in English (the same formats as i18n/format.ts).
 */
export function DateField(props: DateFieldProps) {
  const [locale] = useLocaleState();
  const l = locale || 'en';
  const options = props.showTime ? { ...(props.showDate === false ? {} : DATE_OPTIONS), ...timeOptions(l) } : DATE_OPTIONS;
  return <RaDateField locales={intlLocale(l)} options={options} {...props} />;
}

export function NumberField(props: NumberFieldProps) {
  const [locale] = useLocaleState();
  return <RaNumberField locales={intlLocale(locale || 'en')} {...props} />;
}
