import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { formatDate, formatDateTime, formatNumber, formatRelative, formatTime, intlLocale } from './format';

/** Spaces as Intl writes them (U+202F narrow no-break and U+00A0 no-break in French) → ' '. */
const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');

describe('dates, times and numbers in the chosen language', () => {
  const t = Date.UTC(2026, 10, 23, 13, 5, 7); // 14:05:07 in Lagos (UTC+1)
  const zone = { timeZone: 'Africa/Lagos' };

  it('writes French numbers with a space between thousands and a decimal comma', () => {
    expect(plain(formatNumber(1234.5, 'fr'))).toBe('1 234,5');
    expect(plain(formatNumber(-1234567.25, 'fr', { maximumFractionDigits: 1 }))).toBe('-1 234 567,3');
    expect(plain(formatNumber(0.5, 'fr'))).toBe('0,5');
  });

  it('writes English numbers with a comma between thousands and a decimal point', () => {
    expect(formatNumber(1234.5, 'en')).toBe('1,234.5');
    expect(formatNumber(1234.5, 'en-GB')).toBe('1,234.5');
  });

  it('shows no number for null, NaN and infinities', () => {
    for (const locale of ['en', 'fr']) for (const v of [null, undefined, NaN, Infinity]) expect(formatNumber(v, locale)).toBe('—');
  });

  it('writes French dates day first with a 24-hour clock', () => {
    expect(formatDateTime(t, 'fr', zone)).toBe('23/11/2026 14:05');
    expect(formatDateTime(t, 'fr', { ...zone, seconds: true })).toBe('23/11/2026 14:05:07');
    expect(formatDate(t, 'fr', zone)).toBe('23/11/2026');
    expect(formatTime(t, 'fr', zone)).toBe('14:05');
    expect(formatTime(Date.UTC(2026, 10, 23, 23, 59), 'fr', zone)).toBe('00:59');
  });

  it("writes English dates in the browser's English variant", () => {
    expect(formatDateTime(t, 'en-US', zone)).toBe('11/23/2026, 02:05 PM');
    expect(formatDateTime(t, 'en-GB', zone)).toBe('23/11/2026, 14:05');
    expect(formatDate(t, 'en-GB', zone)).toBe('23/11/2026');
    expect(formatTime(t, 'en-GB', { ...zone, seconds: true })).toBe('14:05:07');
  });

  it('picks the browser variant for English only (formatLocale)', () => {
    const original = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
    Object.defineProperty(globalThis, 'navigator', { value: { language: 'en-GB' }, configurable: true });
    try {
      expect(intlLocale('en')).toBe('en-GB');
      expect(intlLocale('fr')).toBe('fr');
      expect(formatDateTime(t, 'en', zone)).toBe('23/11/2026, 14:05');
    } finally {
      if (original) Object.defineProperty(globalThis, 'navigator', original);
      else delete (globalThis as { navigator?: unknown }).navigator;
    }
  });

  it('accepts dates, strings and numbers, and shows a dash for none or an invalid one', () => {
    expect(formatDateTime(new Date(t), 'fr', zone)).toBe('23/11/2026 14:05');
    expect(formatDateTime(new Date(t).toISOString(), 'fr', zone)).toBe('23/11/2026 14:05');
    for (const v of [null, undefined, '', 'not a date']) expect(formatDateTime(v, 'fr')).toBe('—');
  });

  it("falls back to the browser's zone for an unknown zone name", () => {
    expect(formatDateTime(t, 'fr', { timeZone: 'Not/AZone' })).toMatch(/^23\/11\/2026 \d\d:05$/);
  });

  it('writes how long ago in the language', () => {
    const now = t + 5 * 60_000;
    expect(plain(formatRelative(t, now, 'fr'))).toBe('il y a 5 min');
    expect(formatRelative(t, now, 'en')).toBe('5 min. ago');
    expect(plain(formatRelative(t - 3 * 86_400_000, now, 'fr'))).toBe('il y a 3 j');
    expect(formatRelative(null, now, 'fr')).toBe('—');
  });
});

/** Every source file of the browser app but the tests. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test-support' ? [] : sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('every date and number the browser app shows', () => {
  const root = join(__dirname, '..');
  const files = sources(root).map((path) => ({ file: relative(root, path), text: readFileSync(path, 'utf8') }));

  /** Lines of `text` matching `re`, as "file:line: text". */
  const hits = (file: string, text: string, re: RegExp) =>
    text
      .split('\n')
      .map((line, i) => ({ line, i }))
      .filter(({ line }) => re.test(line) && !/^\s*(\*|\/\/)/.test(line))
      .map(({ line, i }) => `${file}:${i + 1}: ${line.trim()}`);

  it('goes through i18n/format.ts: no toLocale*String, toFixed, toUTCString, no Intl formatter built elsewhere', () => {
    const offenders = files.flatMap(({ file, text }) => {
      if (file === join('i18n', 'format.ts')) return [];
      return [
        ...hits(file, text, /\.toLocale(Date|Time)?String\(|\.toFixed\(|\.toPrecision\(|\.to(UTC|Date|Time)String\(/),
        // An Intl formatter: only format.ts builds them; a file computing a zone's wall-clock parts
        // (formatToParts with a fixed 'en-US') is no display.
        ...hits(file, text, /\bIntl\.(DateTimeFormat|NumberFormat|RelativeTimeFormat|ListFormat)\((?!\)\.resolvedOptions)/).filter(
          (hit) => !(/Intl\.DateTimeFormat\('en-US'/.test(hit) && text.includes('formatToParts')),
        ),
      ];
    });
    expect(offenders).toEqual([]);
  });

  it('never shows a date as ISO text or with Date#toString', () => {
    const offenders = files.flatMap(({ file, text }) => [
      // toISOString in a screen only as the machine value of <time dateTime> or a datetime-local input.
      ...(file.endsWith('.tsx')
        ? hits(file, text, /toISOString\(\)/).filter((hit) => !/dateTime=\{|datetime-local|\.slice\(0, 16\)|onChange\(/.test(hit))
        : []),
      ...hits(file, text, /String\(new Date\(|new Date\([^)]*\)\.toString\(\)|`\$\{new Date\(/),
    ]);
    expect(offenders).toEqual([]);
  });

  it("uses the kit's DateField and NumberField (the language given centrally), never react-admin's own", () => {
    const offenders = files
      .filter(({ file }) => file !== join('kit', 'fields.tsx'))
      .filter(({ text }) => /import\s*\{[^}]*\b(DateField|NumberField)\b[^}]*\}\s*from\s*'react-admin'/.test(text))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
    // And the screens that show dates in lists do use it.
    const users = files.filter(({ text }) => /<DateField\b/.test(text));
    expect(users.length).toBeGreaterThanOrEqual(5);
    for (const { text } of users) expect(text).toMatch(/import \{ DateField \} from '(\.\.\/)+kit\/fields'/);
  });
});
