import type { z } from 'zod';
import { readDecimal } from '../../../shared/common/decimal';

/** What a create-schema field expects, seen through optional/nullable/default wrappers. */
export interface FieldShape {
  base: 'string' | 'number' | 'boolean' | 'json' | 'other';
  nullable: boolean;
  /** A whole-number column (z.number().int(), z.int()). */
  integer?: boolean;
}

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
/** The side of a pipe that says what the value is: a check in front of the real type (a bounded JSON field: unknown → record) is seen through. */
const pipeSide = (def: Def): z.ZodType | undefined => (def.in && defOf(def.in).type === 'unknown' ? def.out : def.in);

/** Unwraps optional, nullable, default, pipe … down to the value type a CSV cell must become. */
export function fieldShape(schema: z.ZodType): FieldShape {
  let nullable = false;
  let current: z.ZodType | undefined = schema;
  for (let depth = 0; current && depth < 20; depth++) {
    const def = defOf(current);
    switch (def.type) {
      case 'nullable':
        nullable = true;
        current = def.innerType;
        continue;
      case 'optional':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'catch':
      case 'nonoptional':
        current = def.innerType;
        continue;
      case 'pipe':
        current = pipeSide(def);
        continue;
      case 'string':
      case 'enum':
      case 'literal':
        return { base: 'string', nullable };
      case 'number':
      case 'int':
      case 'bigint':
        return { base: 'number', nullable, integer: def.type !== 'number' || (current as unknown as { isInt?: boolean }).isInt === true };
      case 'boolean':
        return { base: 'boolean', nullable };
      case 'record':
      case 'object':
      case 'array':
      case 'tuple':
        return { base: 'json', nullable };
      default:
        return { base: 'other', nullable };
    }
  }
  return { base: 'other', nullable };
}

const TRUE = new Set(['true', '1', 'yes', 'y', 'oui']);
const FALSE = new Set(['false', '0', 'no', 'n', 'non']);

export interface CoerceResult {
  value: Record<string, unknown>;
  errors: { field: string; message: string }[];
}

/**
 * Turns one CSV row (strings) into what the create schema expects: numbers, booleans, JSON
 * columns parsed from text, '' → null for nullable columns and absent otherwise (so a default
 * applies or "Required" is reported). Values that are not strings are kept as they are. Columns
 * the schema does not know are reported, except `ignore` (an export's `id` and generated keys).
 */
export function coerceRow(create: z.ZodObject, raw: Record<string, unknown>, ignore: ReadonlySet<string>): CoerceResult {
  const shape = create.shape as Record<string, z.ZodType>;
  const value: Record<string, unknown> = {};
  const errors: { field: string; message: string }[] = [];
  for (const [rawKey, cell] of Object.entries(raw)) {
    const key = rawKey.trim();
    if (!key || ignore.has(key)) continue;
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (!field) {
      if (cell === undefined || cell === null || (typeof cell === 'string' && cell.trim() === '')) continue;
      errors.push({ field: key, message: 'Unknown column' });
      continue;
    }
    if (typeof cell !== 'string') {
      value[key] = cell;
      continue;
    }
    const { base, nullable, integer } = fieldShape(field);
    const text = base === 'string' ? cell : cell.trim();
    if (text.trim() === '') {
      if (nullable) value[key] = null;
      continue;
    }
    switch (base) {
      case 'number': {
        // The portal's one reading of numbers (common/decimal.ts): a dot or a comma, nothing
        // dropped; a whole-number column takes digits only ("1,000" could be 1 or 1000).
        const read = readDecimal(text, { integer, exponent: !integer });
        if (read.ok) value[key] = read.value;
        else errors.push({ field: key, message: read.reason === 'whole' ? 'Not a whole number (digits only)' : 'Not a number' });
        break;
      }
      case 'boolean': {
        const lower = text.toLowerCase();
        if (TRUE.has(lower)) value[key] = true;
        else if (FALSE.has(lower)) value[key] = false;
        else errors.push({ field: key, message: 'Not a yes/no value (true, false, 1, 0, yes, no)' });
        break;
      }
      case 'json': {
        try {
          value[key] = JSON.parse(text);
        } catch {
          // A list written as "a, b, c" in a spreadsheet cell.
          if (fieldShapeIsArray(field))
            value[key] = text
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean);
          else errors.push({ field: key, message: 'Not valid JSON' });
        }
        break;
      }
      default:
        value[key] = text;
    }
  }
  return { value, errors };
}

function fieldShapeIsArray(schema: z.ZodType): boolean {
  let current: z.ZodType | undefined = schema;
  for (let depth = 0; current && depth < 20; depth++) {
    const def = defOf(current);
    if (def.type === 'array') return true;
    current = def.type === 'pipe' ? pipeSide(def) : def.innerType;
  }
  return false;
}
