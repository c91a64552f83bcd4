/**
 * A value read from an untyped record (a form's values, a row's column, a list filter, a spreadsheet
 * cell) as text, exactly as `String()` writes it. What such records hold there is text, a number or a
 * boolean; a caller that may meet an object or null formats it itself first (JSON, '' …). Saying so
 * here is what the lint's no-base-to-string asks: this unknown value is made text on purpose.
 *
 * Pure TypeScript without Node or browser imports: the client uses it too.
 */
export function textOf(value: unknown): string {
  return String(value);
}
