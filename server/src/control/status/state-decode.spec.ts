import { summarizeConfigChange } from '../../controllers/config-changelog';
import { decodeBundle, keyInWords, readStateMeta, toSegments } from './state-decode';

describe('state decoding through the entity type meta', () => {
  const meta = readStateMeta({
    enums: { inverter_state: { 0: 'Off', 9: 'Inverting' }, faults: { 17: 'Overload' } },
    states: { mode: { label: 'Mode', order: 1 }, secret: { hidden: true } },
  });

  it('names values and keys, lists faults and warnings apart, hides and orders keys', () => {
    const d = decodeBundle({ zeta: true, inverter_state: 9, mode: 'eco', secret: 1, faults: [17, 'X'], warnings: 'w1', nested: { a: 1 } }, meta);
    expect(d.values.map((v) => [v.key, v.label, v.text, v.decoded])).toEqual([
      ['mode', 'Mode', 'eco', false],
      ['inverter_state', 'Inverter state', 'Inverting', true],
      ['nested', 'Nested', '{"a":1}', false],
      ['zeta', 'Zeta', 'true', false],
    ]);
    expect(d.faults).toEqual([
      { code: 17, text: 'Overload' },
      { code: 'X', text: 'X' },
    ]);
    expect(d.warnings).toEqual([{ code: 'w1', text: 'w1' }]);
  });

  it('never throws on a meta or bundle of another shape', () => {
    expect(readStateMeta('nonsense')).toEqual({ enums: {}, states: {} });
    expect(readStateMeta({ enums: [1, 2], states: { a: 3 } })).toEqual({ enums: {}, states: {} });
    expect(decodeBundle([1, 2], meta)).toEqual({ values: [], faults: [], warnings: [] });
    expect(keyInWords('batteryVoltage_max')).toBe('Battery voltage max');
  });

  it('cuts the history into segments clipped to the range, the state at `from` first, repeats merged', () => {
    const t = (h: number) => new Date(Date.UTC(2026, 10, 1, h));
    const rows = [
      { controller_id: 'c', timestamp: t(0), online_state: 'ONLINE' as const },
      { controller_id: 'c', timestamp: t(5), online_state: 'ONLINE' as const },
      { controller_id: 'c', timestamp: t(6), online_state: 'OFFLINE' as const },
    ];
    expect(toSegments(rows, t(2), t(8))).toEqual([
      { state: 'ONLINE', from: t(2), to: t(6) },
      { state: 'OFFLINE', from: t(6), to: t(8) },
    ]);
    expect(toSegments([], t(2), t(8))).toEqual([]);
  });
});

describe('configuration change summary', () => {
  it('lists added, changed and removed keys by path, values cut; null when equal in any key order', () => {
    expect(summarizeConfigChange({ a: 1, b: { c: 2 } }, { b: { c: 2 }, a: 1 })).toBeNull();
    expect(summarizeConfigChange({ a: 1, b: { c: 2 }, gone: true }, { a: 2, b: { c: 2, d: 'x'.repeat(50) } })!.split('\n')).toEqual([
      '~ a: 1 → 2',
      `+ b.d = "${'x'.repeat(38)}…`,
      '- gone',
    ]);
    const many = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`k${i}`, i]));
    expect(summarizeConfigChange({}, many)!.split('\n').at(-1)).toBe('… and 5 more');
  });
});

describe('state decoding: a key or value that names an Object.prototype member is text like any other', () => {
  /** Every name a plain object inherits (constructor, __proto__, toString, valueOf, hasOwnProperty, …) and `prototype`. */
  const INHERITED = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];

  it.each(INHERITED)('%s as a state value, a state key and an enum key: shown as written, never decoded through the prototype', (name) => {
    const meta = readStateMeta({ enums: { mode: { eco: 'Economy' } }, states: { mode: { label: 'Mode' } } });
    // as the bundle is stored and read back (JSON: a `__proto__` key is an own key)
    const bundle = JSON.parse(`{"mode":"${name}","${name}":"${name}","faults":["${name}"]}`) as unknown;
    const d = decodeBundle(bundle, meta);
    expect(d.values.map((v) => [v.key, v.label, v.text, v.decoded])).toEqual(
      [
        ['mode', 'Mode', name, false],
        [name, keyInWords(name), name, false],
      ].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)),
    );
    expect(d.faults).toEqual([{ code: name, text: name }]);
    for (const v of d.values) expect(typeof v.text).toBe('string');
  });

  it.each(INHERITED)('a meta that declares %s decodes it as its own entry', (name) => {
    const meta = readStateMeta(JSON.parse(`{"enums":{"${name}":{"${name}":"Own label"}},"states":{"${name}":{"label":"Own name","order":1}}}`));
    const d = decodeBundle(JSON.parse(`{"${name}":"${name}","zeta":1}`), meta);
    expect(d.values.map((v) => [v.key, v.label, v.text, v.decoded])).toEqual([
      [name, 'Own name', 'Own label', true],
      ['zeta', 'Zeta', '1', false],
    ]);
  });
});
