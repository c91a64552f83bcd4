import { hasOwnEntry, ownEntry, ownTable } from './own-entry';

/** Every name a plain object inherits (constructor, __proto__, toString, valueOf, hasOwnProperty, …) and `prototype`. */
const INHERITED = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];

describe("ownEntry / hasOwnEntry / ownTable: only a table's own entries are found", () => {
  const literal: Record<string, string> = { CRITICAL: '#b71c1c', INFO: '#1565c0' };
  const map = new Map([['CRITICAL', '#b71c1c']]);

  it('finds own entries of object literals and Maps', () => {
    expect(ownEntry(literal, 'CRITICAL')).toBe('#b71c1c');
    expect(hasOwnEntry(literal, 'INFO')).toBe(true);
    expect(ownEntry(map, 'CRITICAL')).toBe('#b71c1c');
    expect(hasOwnEntry(map, 'CRITICAL')).toBe(true);
  });

  it.each(INHERITED)('never answers the inherited %s (object literal, Map, null-prototype table, missing table)', (name) => {
    expect(name in literal || name === 'prototype').toBe(true); // the trap is real for a plain object
    for (const table of [literal, map, ownTable<string>(), undefined, null]) {
      expect(ownEntry(table, name)).toBeUndefined();
      expect(hasOwnEntry(table, name)).toBe(false);
    }
  });

  it.each(INHERITED)('an own entry named %s is found as written', (name) => {
    const table = ownTable([[name, 'own']]);
    expect(ownEntry(table, name)).toBe('own');
    expect(Object.keys(table)).toEqual([name]);
    // as a controller's or a user's JSON brings it
    expect(ownEntry(JSON.parse(`{"${name}":"own"}`) as Record<string, string>, name)).toBe('own');
  });

  it('a null-prototype table takes __proto__ as an entry (no prototype change) and inherits nothing', () => {
    const table = ownTable<unknown>();
    table.__proto__ = { polluted: true };
    expect(Object.getPrototypeOf(table)).toBeNull();
    expect(Object.keys(table)).toEqual(['__proto__']);
    expect(table.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('no key, no entry', () => {
    expect(ownEntry(literal, undefined)).toBeUndefined();
    expect(ownEntry(literal, null)).toBeUndefined();
    expect(hasOwnEntry(literal, '')).toBe(false);
  });
});
