import { jsonKeyChanges, sameJson, stableJson } from './json';

describe('JSON comparison', () => {
  it('does not count key order, at any depth, and tells lists apart by order', () => {
    expect(stableJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    expect(sameJson({ a: 1, b: { c: 2 } }, { b: { c: 2 }, a: 1 })).toBe(true);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ a: 1 }, { a: '1' })).toBe(false);
  });

  it('lists every key of either side by dotted path with what happened to it', () => {
    expect(jsonKeyChanges({ a: 1, b: { c: 2, e: { z: 1, y: 2 } }, gone: true }, { a: 2, b: { c: 2, d: 3, e: { y: 2, z: 1 } } })).toEqual([
      { path: 'a', change: 'changed', before: 1, after: 2 },
      { path: 'b.c', change: 'same', before: 2, after: 2 },
      { path: 'b.d', change: 'added', after: 3 },
      { path: 'b.e.y', change: 'same', before: 2, after: 2 },
      { path: 'b.e.z', change: 'same', before: 1, after: 1 },
      { path: 'gone', change: 'removed', before: true },
    ]);
  });
});
