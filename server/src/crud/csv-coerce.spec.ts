import { z } from 'zod';
import { coerceRow, fieldShape } from './csv-coerce';

/** A create schema with every kind of numeric column an importable resource has. */
const create = z.object({
  name: z.string(),
  lat: z.number().min(-90).max(90).nullable().optional(),
  ratio: z.number().default(1),
  port: z.number().int().min(1).max(65535).nullable().optional(),
  count: z.int().optional(),
});
const none = new Set<string>();
const row = (cells: Record<string, string>) => coerceRow(create, { name: 'x', ...cells }, none);

describe('CSV import: numeric cells', () => {
  it('sees whole-number columns through optional, nullable and default', () => {
    expect(fieldShape(create.shape.lat)).toEqual({ base: 'number', nullable: true, integer: false });
    expect(fieldShape(create.shape.ratio)).toEqual({ base: 'number', nullable: false, integer: false });
    expect(fieldShape(create.shape.port)).toEqual({ base: 'number', nullable: true, integer: true });
    expect(fieldShape(create.shape.count)).toEqual({ base: 'number', nullable: false, integer: true });
  });

  it.each([
    ['3,3792', 3.3792],
    ['3.3792', 3.3792],
    ['0,5', 0.5],
    ['-1,25', -1.25],
    [' 36.8 ', 36.8],
    ['1,000', 1],
  ])('reads %j in a decimal column as %p (one comma or dot is the decimal separator)', (cell, value) => {
    expect(row({ lat: cell, ratio: cell })).toEqual({ value: { name: 'x', lat: value, ratio: value }, errors: [] });
  });

  it.each(['1,234.5', '1.234,5', '1,2,3', '3,37,92', '1 000', '12abc', 'abc', ','])(
    'refuses %j in a decimal column instead of reading another number',
    (cell) => {
      const out = row({ lat: cell, ratio: cell });
      expect(out.value).toEqual({ name: 'x' });
      expect(out.errors).toEqual([
        { field: 'lat', message: 'Not a number' },
        { field: 'ratio', message: 'Not a number' },
      ]);
    },
  );

  it('whole-number columns take digits only: "1,000" or "22,5" are refused, never read as 1 or 22.5', () => {
    expect(row({ port: '22', count: '-3' })).toEqual({ value: { name: 'x', port: 22, count: -3 }, errors: [] });
    for (const cell of ['1,000', '1.000', '22,5', '22.']) {
      const out = row({ port: cell, count: cell });
      expect(out.value).toEqual({ name: 'x' });
      expect(out.errors).toEqual([
        { field: 'port', message: 'Not a whole number (digits only)' },
        { field: 'count', message: 'Not a whole number (digits only)' },
      ]);
    }
    expect(row({ port: 'twenty' }).errors).toEqual([{ field: 'port', message: 'Not a number' }]);
  });

  it('an empty cell is null in a nullable column and absent otherwise (the default applies)', () => {
    expect(row({ lat: '', ratio: ' ', port: '' })).toEqual({ value: { name: 'x', lat: null, port: null }, errors: [] });
  });
});
