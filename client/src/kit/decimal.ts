import { readDecimal } from '../../../shared/common/decimal';

/**
 * What a person typed in a number field, read by the portal's one rule (server/src/common/decimal.ts,
 * the same the CSV import uses): one decimal separator, a dot or a comma; anything ambiguous is
 * refused with the message key to show, never turned into another number.
 */
export type DecimalText = { ok: true; value: number | null } | { ok: false; message: 'portal.kit.number.invalid' | 'portal.kit.number.whole' };

export function parseDecimal(text: string, options: { integer?: boolean } = {}): DecimalText {
  const read = readDecimal(text, options);
  if (read.ok) return read;
  return { ok: false, message: read.reason === 'whole' ? 'portal.kit.number.whole' : 'portal.kit.number.invalid' };
}
