import { applyMergePatch, mergePatchBetween } from './command-wire';

/** Every name a plain object inherits (constructor, __proto__, toString, valueOf, hasOwnProperty, …) and `prototype`. */
const INHERITED = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];
/** A configuration as a controller or a user sends it (JSON: `__proto__` is an own key). */
const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('configuration merge patches: a key naming an Object.prototype member is a key like any other', () => {
  it.each(INHERITED)('%s: set, replaced, merged and removed as its own entry; no prototype changed', (name) => {
    const set = applyMergePatch({ a: 1 }, json(`{"${name}":{"x":1}}`));
    expect(Object.getPrototypeOf(set)).toBe(Object.prototype);
    expect(Object.keys(set)).toEqual(['a', name]);
    expect(JSON.stringify(set)).toBe(`{"a":1,"${name}":{"x":1}}`);
    const merged = applyMergePatch(set, json(`{"${name}":{"y":2}}`));
    expect(JSON.stringify(merged)).toBe(`{"a":1,"${name}":{"x":1,"y":2}}`);
    const scalar = applyMergePatch({}, json(`{"${name}":5}`));
    expect(JSON.stringify(scalar)).toBe(`{"${name}":5}`);
    expect(JSON.stringify(applyMergePatch(merged, json(`{"${name}":null}`)))).toBe('{"a":1}');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it.each(INHERITED)('%s: the patch between two configurations names it (added, changed, removed)', (name) => {
    expect(JSON.stringify(mergePatchBetween({ a: 1 }, json(`{"a":1,"${name}":2}`)))).toBe(`{"${name}":2}`);
    expect(JSON.stringify(mergePatchBetween(json(`{"${name}":1}`), json(`{"${name}":2}`)))).toBe(`{"${name}":2}`);
    expect(JSON.stringify(mergePatchBetween(json(`{"a":1,"${name}":2}`), { a: 1 }))).toBe(`{"${name}":null}`);
    expect(mergePatchBetween(json(`{"${name}":{"x":1}}`), json(`{"${name}":{"x":1}}`))).toBeUndefined();
  });
});
