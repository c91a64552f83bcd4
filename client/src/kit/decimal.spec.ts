import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseDecimal } from './decimal';

describe('parseDecimal: what is typed in a number field', () => {
  it.each([
    ['3,3792', 3.3792],
    ['3.3792', 3.3792],
    ['0,5', 0.5],
    [',5', 0.5],
    ['-1,25', -1.25],
    ['+36.8', 36.8],
    ['  42 ', 42],
    ['7,', 7],
    ['1,000', 1],
  ])('reads %j as %p (one comma or one dot is the decimal separator)', (text, value) => {
    expect(parseDecimal(text)).toEqual({ ok: true, value });
  });

  it('reads an empty field as no value', () => {
    expect(parseDecimal('')).toEqual({ ok: true, value: null });
    expect(parseDecimal('  ')).toEqual({ ok: true, value: null });
  });

  it.each(['1,234.5', '1.234,5', '1,2,3', '1.2.3', '12 abc', 'abc', '1 000', '1e5', '0x10', '-', ',', 'Infinity', 'NaN', '3,37,92'])(
    'refuses %j instead of guessing a number',
    (text) => {
      expect(parseDecimal(text)).toEqual({ ok: false, message: 'portal.kit.number.invalid' });
    },
  );

  it('refuses a number too large to hold', () => {
    expect(parseDecimal('9'.repeat(400))).toEqual({ ok: false, message: 'portal.kit.number.invalid' });
  });

  it('whole-number fields take digits only: a separator is refused, never dropped', () => {
    expect(parseDecimal('22', { integer: true })).toEqual({ ok: true, value: 22 });
    expect(parseDecimal('-3', { integer: true })).toEqual({ ok: true, value: -3 });
    for (const text of ['2,2', '2.2', '1,000', '1.000', '22,'])
      expect(parseDecimal(text, { integer: true })).toEqual({ ok: false, message: 'portal.kit.number.whole' });
    for (const text of ['2 2', 'x', '1,0,0', '99999999999999999999'])
      expect(parseDecimal(text, { integer: true })).toEqual({ ok: false, message: 'portal.kit.number.invalid' });
  });
});

/** Every .tsx screen of the browser app. */
function screens(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return screens(path);
    return path.endsWith('.tsx') ? [path] : [];
  });
}

describe('number fields of the browser app', () => {
  it('go through DecimalInput: no react-admin NumberInput, no type=number input (the browser drops a decimal comma)', () => {
    const root = join(__dirname, '..');
    const offenders = screens(root).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const found: string[] = [];
      if (/<NumberInput\b|import\s*\{[^}]*\bNumberInput\b[^}]*\}\s*from/.test(text)) found.push(`${file}: NumberInput`);
      if (/type\s*[=:]\s*\{?\s*["']number["']/.test(text) && !/type:\s*'text' \| 'number'/.test(text)) found.push(`${file}: type=number`);
      return found;
    });
    expect(offenders).toEqual([]);
    // And the fields that hold numbers use it.
    for (const file of ['fleet/sites.tsx', 'fleet/controllers.tsx', 'fleet/SystemMetadata.tsx']) {
      expect(readFileSync(join(root, file), 'utf8')).toMatch(/<DecimalInput\b/);
    }
  });
});
