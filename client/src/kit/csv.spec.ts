import Papa from 'papaparse';
import { chunks, parseCsv, recordsToCsv } from './csv';

describe('CSV import parsing', () => {
  it('maps header names to fields, sorts out ignored and unknown columns, and keeps file line numbers', () => {
    const text = 'id,name,timezone,colour\r\nx1,Alpha,UTC,red\r\n\r\nx2,"Beta\nwith a line break",Africa/Nairobi,blue\r\nx3,Gamma,,green\r\n';
    const p = parseCsv(text, ['name', 'timezone'], ['id']);
    expect(p.header).toEqual(['id', 'name', 'timezone', 'colour']);
    expect(p.mapped).toEqual(['name', 'timezone']);
    expect(p.ignored).toEqual(['id']);
    expect(p.unknown).toEqual(['colour']);
    expect(p.problems).toEqual([]);
    expect(p.rows.map((r) => r.line)).toEqual([2, 4, 6]);
    expect(p.rows[1].values).toEqual({ name: 'Beta\nwith a line break', timezone: 'Africa/Nairobi' });
    expect(p.rows[2].values).toEqual({ name: 'Gamma', timezone: '' });
  });

  it('reports a file without a header and a file without rows', () => {
    expect(parseCsv('', ['name']).problems).toContain('The file has no header row');
    const onlyHeader = parseCsv('name\n', ['name']);
    expect(onlyHeader.rows).toEqual([]);
    expect(onlyHeader.mapped).toEqual(['name']);
  });

  it('strips a byte-order mark', () => {
    expect(parseCsv('\uFEFFname\nA\n', ['name']).mapped).toEqual(['name']);
  });

  it('splits in chunks', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunks([], 100)).toEqual([]);
    expect(
      chunks(
        Array.from({ length: 250 }, (_, i) => i),
        100,
      ).map((c) => c.length),
    ).toEqual([100, 100, 50]);
  });
});

describe('CSV export', () => {
  it('writes every field, JSON as text and null as empty, and reads back the same', () => {
    const csv = recordsToCsv([
      { id: 'a', name: 'Farm, "north"', info: { a: 1 }, lat: -1.5, note: null },
      { id: 'b', name: 'Shop', extra: true },
    ]);
    const back = Papa.parse<Record<string, string>>(csv, { header: true }).data;
    expect(back[0]).toEqual({ id: 'a', name: 'Farm, "north"', info: '{"a":1}', lat: '-1.5', note: '', extra: '' });
    expect(back[1]).toEqual({ id: 'b', name: 'Shop', info: '', lat: '', note: '', extra: 'true' });
  });

  it('a column named after an Object.prototype member (constructor, __proto__, toString …) is a column like any other', () => {
    for (const name of [...Object.getOwnPropertyNames(Object.prototype), 'prototype']) {
      // as records come from JSON: `__proto__` is an own key
      const records = [JSON.parse(`{"id":"a","${name}":{"x":1}}`), { id: 'b' }] as Record<string, unknown>[];
      const csv = recordsToCsv(records);
      expect([name, csv]).toEqual([name, `id,${name}\r\na,"{""x"":1}"\r\nb,`]);
      const p = parseCsv(csv, [name], ['id']);
      expect([name, p.mapped, p.rows.map((r) => r.values[name])]).toEqual([name, [name], ['{"x":1}', '']]);
    }
  });

  it('round-trips through the import parser', () => {
    const csv = recordsToCsv([{ id: '1', name: 'Alpha', timezone: 'UTC' }]);
    const p = parseCsv(csv, ['name', 'timezone'], ['id']);
    expect(p.rows[0].values).toEqual({ name: 'Alpha', timezone: 'UTC' });
  });
});
