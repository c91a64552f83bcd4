/**
 * What a person typed in a number field, read without guessing: digits with at most one decimal
 * separator, a dot or a comma (French users write 3,14). Anything else (1,234.5, 1.2.3, 12 abc,
 * 1e5) is refused rather than turned into another number. Whole-number fields take digits only:
 * "1,000" could mean 1 or 1000, so it is refused too.
 */
export type DecimalText = { ok: true; value: number | null } | { ok: false; message: 'portal.kit.number.invalid' | 'portal.kit.number.whole' };

const DECIMAL = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/;
const WHOLE = /^[+-]?\d+$/;

export function parseDecimal(text: string, options: { integer?: boolean } = {}): DecimalText {
  const t = text.replace(/[\s\u00a0\u202f]+/g, ' ').trim();
  if (t === '') return { ok: true, value: null };
  if (options.integer) {
    if (!WHOLE.test(t)) return { ok: false, message: DECIMAL.test(t) ? 'portal.kit.number.whole' : 'portal.kit.number.invalid' };
    const n = Number(t);
    return Number.isSafeInteger(n) ? { ok: true, value: n } : { ok: false, message: 'portal.kit.number.invalid' };
  }
  if (!DECIMAL.test(t)) return { ok: false, message: 'portal.kit.number.invalid' };
  const n = Number(t.replace(',', '.'));
  return Number.isFinite(n) ? { ok: true, value: n } : { ok: false, message: 'portal.kit.number.invalid' };
}
