/**
 * Pure helpers of the JSON editor (JsonInput / JsonField): text ⇄ value, with the place of a
 * syntax error as line and column (1-based) so the form can say where the text is wrong.
 */

/** Text that does not parse: kept as the form value so validation blocks saving. */
export class InvalidJson {
  constructor(
    readonly text: string,
    readonly message: string,
    readonly line: number,
    readonly column: number,
  ) {}
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Line and column (1-based) of a character offset in a text. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/** Where JSON.parse stopped, from its message (V8: "at position N", "(line L column C)"). */
function errorPlace(text: string, message: string): { line: number; column: number } {
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /position (\d+)/.exec(message);
  if (pos) return lineColumnAt(text, Number(pos[1]));
  // "Unexpected end of JSON input" and the like: the end of the text.
  return lineColumnAt(text, text.replace(/\s+$/, '').length);
}

/** Drop V8's own position suffix: the editor says line and column itself. */
function shortMessage(message: string): string {
  return message
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/\s*(in JSON )?at position \d+/, '')
    .replace(/^JSON\.parse: /, '')
    .trim();
}

/**
 * The value of an editor text: empty (or blank) → null; JSON → its value; anything else →
 * InvalidJson with the line and column of the error.
 */
export function parseJsonText(text: string): JsonValue | InvalidJson {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const { line, column } = errorPlace(text, message);
    return new InvalidJson(text, shortMessage(message), line, column);
  }
}

/** The editor text of a value: pretty-printed with two spaces; null/undefined → ''. */
export function formatJsonValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof InvalidJson) return value.text;
  return JSON.stringify(value, null, 2);
}

/** Whether an editor text and a form value mean the same thing (no reformatting on re-render). */
export function sameJson(text: string, value: unknown): boolean {
  const parsed = parseJsonText(text);
  if (parsed instanceof InvalidJson || value instanceof InvalidJson) return parsed === value || (value instanceof InvalidJson && value.text === text);
  return JSON.stringify(parsed) === JSON.stringify(value ?? null);
}
