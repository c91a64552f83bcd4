/**
 * How the portal reads a number a person typed or a spreadsheet wrote, without guessing: digits
 * with at most one decimal separator, a dot or a comma (French users write 3,14). Anything
 * ambiguous (1,234.5, 1.2.3, 1 000, 12 abc) is refused rather than turned into another number.
 * Whole numbers take digits only: "1,000" could mean 1 or 1000. Pure TypeScript with no imports:
 * the browser's number fields and the CSV import ask the same question.
 */
export type DecimalReading = { ok: true; value: number | null } | { ok: false; reason: 'invalid' | 'whole' };

const DECIMAL = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/;
const DECIMAL_EXP = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][-+]?\d+)?$/;
const WHOLE = /^[+-]?\d+$/;

/**
 * `integer`: digits only. `exponent`: also 1,5E+3 (spreadsheets write large numbers so).
 * Blank text reads as null.
 */
export function readDecimal(text: string, options: { integer?: boolean; exponent?: boolean } = {}): DecimalReading {
  const t = text.replace(/[\s\u00a0\u202f]+/g, ' ').trim();
  if (t === '') return { ok: true, value: null };
  const decimal = options.exponent ? DECIMAL_EXP : DECIMAL;
  if (options.integer) {
    if (!WHOLE.test(t)) return { ok: false, reason: decimal.test(t) ? 'whole' : 'invalid' };
    const n = Number(t);
    return Number.isSafeInteger(n) ? { ok: true, value: n } : { ok: false, reason: 'invalid' };
  }
  if (!decimal.test(t)) return { ok: false, reason: 'invalid' };
  const n = Number(t.replace(',', '.'));
  return Number.isFinite(n) ? { ok: true, value: n } : { ok: false, reason: 'invalid' };
}
