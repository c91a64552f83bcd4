import fc from 'fast-check';

/**
 * fast-check arbitraries for tRPC inputs, derived from a procedure's zod schemas (`_def.inputs`)
 * and mixed with generic junk: values near the schema (right keys, wrong or odd values) go deeper
 * into the server than plain noise.
 */

type ZodLike = { _zod?: { def: Record<string, unknown> & { type: string } } };

const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype', '__defineGetter__', 'toString', 'valueOf', 'hasOwnProperty'];

/** Strings that have broken servers before: SQL, markup, control characters, unicode, huge. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    "'; DROP TABLE company; --",
    '" OR 1=1 --',
    '%_\\',
    '<script>alert(1)</script>',
    '\u0000',
    '\u202e\u200b',
    '💥🙂',
    'null',
    'undefined',
    'NaN',
    '1e309',
    '-0',
    '../../etc/passwd',
    '${jndi:ldap://x}',
    '{{7*7}}',
    'zzzzzzzzzzzzzzzzzzzzzzzz',
    '2026-13-45T99:99:99Z',
  ),
  fc.integer({ min: 65, max: 20_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1, max: 300 }).map((n) => '\u{1F4A5}'.repeat(n)),
);

export const oddNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, -1, 1, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.5),
);

/** Anything JSON (and a bit more), nested, with prototype-pollution keys. */
export const junk: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    oddString,
    oddNumber,
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.date({ noInvalidDate: false }),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom(...POLLUTION_KEYS)), tie('v'), { maxKeys: 4 }),
  ),
})).v;

/** A value that is never a plain object: fails every `z.object` at the top. */
export const notAnObject: fc.Arbitrary<unknown> = fc.oneof(oddString, oddNumber, fc.boolean(), fc.constant(null), fc.array(junk, { maxLength: 3 }), fc.date());

function def(schema: unknown): (Record<string, unknown> & { type: string }) | undefined {
  return (schema as ZodLike)?._zod?.def;
}

/** An arbitrary near a zod schema: its keys and value kinds, with junk mixed in at every level. */
export function near(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const d = def(schema);
  if (!d || depth > 5) return junk;
  const mix = (a: fc.Arbitrary<unknown>) => fc.oneof({ weight: 4, arbitrary: a }, { weight: 1, arbitrary: junk });
  switch (d.type) {
    case 'object': {
      const shape = d.shape as Record<string, unknown>;
      const keys = Object.keys(shape);
      const record = fc.record(Object.fromEntries(keys.map((k) => [k, near(shape[k], depth + 1)])), { requiredKeys: [] }) as fc.Arbitrary<
        Record<string, unknown>
      >;
      const extra = fc.dictionary(fc.oneof(fc.constantFrom(...POLLUTION_KEYS), fc.string({ maxLength: 12 })), junk, { maxKeys: 2 });
      return mix(
        fc.tuple(record, fc.option(extra, { freq: 3 })).map(([r, e]) => {
          if (!e) return r;
          // own properties named __proto__ etc., as JSON.parse would make them
          const out: Record<string, unknown> = { ...r };
          for (const [k, v] of Object.entries(e)) Object.defineProperty(out, k, { value: v, enumerable: true, configurable: true, writable: true });
          return out;
        }),
      );
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return fc.oneof(near(d.innerType, depth), fc.constant(undefined), fc.constant(null));
    case 'pipe':
      return fc.oneof(near(d.in, depth), near(d.out, depth));
    case 'union':
      return fc.oneof(...(d.options as unknown[]).map((o) => near(o, depth + 1)));
    case 'intersection':
      return fc.oneof(near(d.left, depth + 1), near(d.right, depth + 1));
    case 'array':
      return mix(fc.array(near(d.element, depth + 1), { maxLength: 5 }));
    case 'record':
      return mix(fc.dictionary(fc.oneof(oddString, fc.constantFrom(...POLLUTION_KEYS)), near(d.valueType, depth + 1), { maxKeys: 4 }));
    case 'enum':
      return mix(fc.constantFrom(...Object.values(d.entries as Record<string, string | number>), 'NOT_A_VALUE', ''));
    case 'literal':
      return mix(fc.constantFrom(...(d.values as unknown[])));
    case 'string':
      return mix(oddString);
    case 'number':
    case 'int':
    case 'bigint':
      return mix(oddNumber);
    case 'boolean':
      return mix(fc.boolean());
    case 'date':
      return mix(fc.date({ noInvalidDate: false }));
    default:
      return junk;
  }
}
