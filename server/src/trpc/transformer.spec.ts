import { Logger } from '@nestjs/common';
import superjson from 'superjson';
import { z } from 'zod';
import { sharedOutput, toWire, transformer, UNREADABLE_MARKER } from './trpc';

/** The answers' transformer skips superjson's walk for plain JSON; the wire format must not change. */
describe('answer transformer', () => {
  const shared = { a: 1 };
  const sharedDate = new Date(5);
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
    [
      'Dates in a list and under keys with dots and backslashes',
      { rows: [{ at: new Date(1), n: 1 }, { at: null }], 'a.b\\c': { 'x.y': new Date(2) }, 0: [new Date(3)] },
    ],
    ['the same Date twice', { a: sharedDate, b: sharedDate }],
    ['an invalid Date', { at: new Date(Number.NaN) }],
    ['a Date alone', new Date(4)],
    ['NaN and Infinity', [Number.NaN, Number.POSITIVE_INFINITY]],
    ['a bigint', { n: BigInt(12) }],
    ['a Map and a Set', { m: new Map([['k', 1]]), s: new Set([1]) }],
    ['the same object twice', { x: shared, y: shared }],
    ['a cycle', cyclic],
    ['a deep object', deep],
    [
      'a class instance',
      {
        v: new (class Money {
          amount = 3;
        })(),
      },
    ],
    ['a null-prototype object', Object.assign(Object.create(null), { a: 1 })],
  ];

  it.each(values)('sends %s exactly as superjson does', (_label, value) => {
    const ours = transformer.output.serialize(value);
    expect(JSON.stringify(ours)).toEqual(JSON.stringify(superjson.serialize(value)));
    const back = superjson.deserialize(JSON.parse(JSON.stringify(ours)));
    expect(back).toEqual(superjson.deserialize(JSON.parse(JSON.stringify(superjson.serialize(value)))));
  });

  it('sends null for what superjson refuses, marks it, and logs it with the path: one bad row does not sink a list', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const polluted = JSON.parse('{"__proto__": {"admin": true}}');
    expect(() => superjson.serialize(polluted)).toThrow(/prototype pollution/);
    const deep = Array.from({ length: 5000 }).reduce<unknown>((inner) => ({ inner }), 'bottom');
    expect(() => superjson.serialize({ deep })).toThrow();
    const list = {
      data: [
        { id: 'a', name: 'Plant', meta: JSON.parse('{"ok": 1, "constructor": {"x": 1}}'), at: new Date('2026-01-01T00:00:00Z') },
        { id: 'b', name: 'Deep', meta: { deep } },
        { id: 'c', name: 'Fine', meta: { ok: true } },
      ],
      total: 3,
    };
    const sent = superjson.deserialize<typeof list>(JSON.parse(JSON.stringify(toWire(list, 'controller.getList'))));
    expect(sent.total).toBe(3);
    expect(sent.data[0]).toEqual({ id: 'a', name: 'Plant', meta: null, at: new Date('2026-01-01T00:00:00Z'), [UNREADABLE_MARKER]: ['meta'] });
    expect(sent.data[1]).toEqual({ id: 'b', name: 'Deep', meta: null, [UNREADABLE_MARKER]: ['meta'] });
    expect(sent.data[2]).toEqual({ id: 'c', name: 'Fine', meta: { ok: true } });
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(/^controller\.getList: .*data\.0\.meta, data\.1\.meta/)]);
    // not a record: the object holding the refused key is cut
    expect(superjson.deserialize(JSON.parse(JSON.stringify(transformer.output.serialize({ settings: polluted, n: 1 }))))).toEqual({
      settings: null,
      n: 1,
      [UNREADABLE_MARKER]: ['settings'],
    });
    warn.mockRestore();
  });

  it('reads inputs with superjson', () => {
    const input = superjson.serialize({ since: new Date('2026-01-01T00:00:00Z') });
    expect(transformer.input.deserialize(input)).toEqual({ since: new Date('2026-01-01T00:00:00Z') });
  });
});

describe('shared answers (sharedOutput)', () => {
  const schema = z.object({ at: z.date(), pins: z.array(z.object({ id: z.string() })) });

  it('checks a shared object once and answers the same checked copy, sent as superjson sends it', () => {
    const parse = sharedOutput(schema);
    const value = { at: new Date('2026-11-24T10:00:00Z'), pins: [{ id: 'a', extra: 'dropped' }] };
    const first = parse(value);
    expect(parse(value)).toBe(first);
    expect(first).toEqual({ at: value.at, pins: [{ id: 'a' }] });
    expect(JSON.stringify(transformer.output.serialize(first))).toEqual(JSON.stringify(superjson.serialize(first)));
  });

  it('still refuses what the schema refuses, every time', () => {
    const parse = sharedOutput(schema);
    const bad = { at: 'not a date', pins: [] };
    expect(() => parse(bad)).toThrow();
    expect(() => parse(bad)).toThrow();
  });

  it('a new object is checked again (a refreshed overview)', () => {
    const parse = sharedOutput(schema);
    const a = parse({ at: new Date(1), pins: [] });
    const b = parse({ at: new Date(2), pins: [] });
    expect(b).not.toBe(a);
    expect(b.at.getTime()).toBe(2);
  });
});
