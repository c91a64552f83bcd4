/**
 * Positional parameters collected while SQL is assembled: `p.add(value)` keeps the value and
 * answers its placeholder (`$1`, `$2` …); run the text with `p.values`. Values never go into the text.
 */
export class SqlParams {
  /** `values`: parameters already written into the text as `$1` … (new ones continue after them). */
  constructor(readonly values: unknown[] = []) {}

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
