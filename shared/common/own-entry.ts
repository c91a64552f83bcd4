/**
 * Text is never a key into a plain object (docs/security.md, "Text is never a key into a plain
 * object"). A table written as an object literal (`{ CRITICAL: '#b71c1c', … }`) or a
 * `Record<string, …>` built from data inherits `constructor`, `toString`, `__proto__`, … from
 * Object.prototype: `table['constructor']` is a function, `'toString' in table` is true. When the
 * key is a user's or a controller's text (a placeholder, a state value, a column name, a severity
 * read back from a row), look it up with these helpers so only the table's own entries are found.
 *
 * Pure TypeScript without Node or browser imports: the client uses it too.
 */

type Table<V> = Readonly<Record<string, V>> | ReadonlyMap<string, V> | null | undefined;

/** Whether `key` is one of the table's own entries (never an inherited Object.prototype member). */
export function hasOwnEntry(table: Table<unknown>, key: string | number | symbol | null | undefined): boolean {
  if (table === null || table === undefined || key === null || key === undefined) return false;
  if (table instanceof Map) return table.has(key);
  return Object.prototype.hasOwnProperty.call(table, key);
}

/** `table[key]` when `key` is the table's own entry, else undefined. */
export function ownEntry<V>(table: Table<V>, key: string | number | symbol | null | undefined): V | undefined {
  if (!hasOwnEntry(table, key)) return undefined;
  return table instanceof Map ? (table as ReadonlyMap<string, V>).get(key as string) : (table as Record<PropertyKey, V>)[key as PropertyKey];
}

/**
 * A table without a prototype, for one built from data (`table[key] = …` with any key, even
 * `__proto__`, sets an entry; no key is inherited). Its entries are enumerable as usual.
 */
export function ownTable<V>(entries: Iterable<readonly [string, V]> = []): Record<string, V> {
  const out = Object.create(null) as Record<string, V>;
  for (const [key, value] of entries) out[key] = value;
  return out;
}
