import superjson from 'superjson';
import { transformer } from './trpc';

/** The answers' transformer skips superjson's walk for plain JSON; the wire format must not change. */
describe('answer transformer', () => {
  const shared = { a: 1 };
  const cyclic: Record<string, unknown> = { name: 'loop' };
  cyclic.self = cyclic;
  const deep = Array.from({ length: 40 }).reduce<unknown>((inner) => ({ inner }), 'bottom');
  const values: [string, unknown][] = [
    ['a list page', { data: [{ id: 'a', name: 'Plant', deployment_date: null, n: 3, ok: true }], total: 1 }],
    ['empty objects and arrays', { data: [], meta: {}, nested: [[], [{}]] }],
    ['primitives', 'text'],
    ['null', null],
    ['-0 and numbers', { a: -0, b: 1.5, c: -2 }],
    ['undefined', undefined],
    ['an undefined field', { a: undefined, b: 1 }],
    ['a Date', { at: new Date('2026-01-02T03:04:05Z') }],
    ['NaN and Infinity', [Number.NaN, Number.POSITIVE_INFINITY]],
    ['a bigint', { n: BigInt(12) }],
    ['a Map and a Set', { m: new Map([['k', 1]]), s: new Set([1]) }],
    ['the same object twice', { x: shared, y: shared }],
    ['a cycle', cyclic],
    ['a deep object', deep],
    ['a class instance', { v: new (class Money { amount = 3 })() }],
    ['a null-prototype object', Object.assign(Object.create(null), { a: 1 })],
  ];

  it.each(values)('sends %s exactly as superjson does', (_label, value) => {
    const ours = transformer.output.serialize(value);
    expect(JSON.stringify(ours)).toEqual(JSON.stringify(superjson.serialize(value)));
    const back = superjson.deserialize(JSON.parse(JSON.stringify(ours)));
    expect(back).toEqual(superjson.deserialize(JSON.parse(JSON.stringify(superjson.serialize(value)))));
  });

  it('refuses what superjson refuses', () => {
    const polluted = JSON.parse('{"__proto__": {"admin": true}}');
    expect(() => superjson.serialize(polluted)).toThrow(/prototype pollution/);
    expect(() => transformer.output.serialize(polluted)).toThrow(/prototype pollution/);
  });

  it('reads inputs with superjson', () => {
    const input = superjson.serialize({ since: new Date('2026-01-01T00:00:00Z') });
    expect(transformer.input.deserialize(input)).toEqual({ since: new Date('2026-01-01T00:00:00Z') });
  });
});
