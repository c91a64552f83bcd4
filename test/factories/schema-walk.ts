/**
 * Walks a zod input schema (zod 4's `_zod.def`) down to its fields: the tests that check every
 * field of every procedure find the fields here, each with its own verdict on a leaf.
 */
export type Path = (string | number)[];
export type SchemaDef = {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  in?: unknown;
  out?: unknown;
  options?: unknown[];
  element?: unknown;
  valueType?: unknown;
};
export const defOf = (schema: unknown): SchemaDef | undefined => (schema as { _zod?: { def: SchemaDef } })?._zod?.def;

/** What a visitor answers to stop the walk at a node. */
export const STOP: unique symbol = Symbol('stop the walk here');

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

export interface WalkOptions<C> {
  /** A union: its first option only (the shape a valid input takes), or every option. */
  unions: 'first' | 'all';
  /** A pipe: its input side only, or its output side too. */
  pipes: 'in' | 'both';
  maxDepth?: number;
  /**
   * Called on every node before the walk goes into it: `STOP` stops there; anything else is the
   * context below. Leaves (string, number, record, unknown …) are only seen here.
   */
  visit(schema: unknown, def: SchemaDef, path: Path, ctx: C): C | typeof STOP;
}

export function walkSchema<C>(schema: unknown, ctx: C, o: WalkOptions<C>): void {
  const seen = new Set<unknown>();
  const walk = (s: unknown, path: Path, c: C): void => {
    const d = defOf(s);
    if (!d || seen.has(s) || path.length > (o.maxDepth ?? Infinity)) return;
    const next = o.visit(s, d, path, c);
    if (next === STOP) return;
    if (WRAPPERS.has(d.type)) return walk(d.innerType, path, next);
    switch (d.type) {
      case 'object':
        seen.add(s);
        for (const [k, v] of Object.entries(d.shape ?? {})) walk(v, [...path, k], next);
        seen.delete(s);
        return;
      case 'pipe':
        walk(d.in, path, next);
        if (o.pipes === 'both') walk(d.out, path, next);
        return;
      case 'union':
        for (const option of o.unions === 'first' ? (d.options ?? []).slice(0, 1) : (d.options ?? [])) walk(option, path, next);
        return;
      case 'array':
        return walk(d.element, [...path, 0], next);
      default:
        return;
    }
  };
  walk(schema, [], ctx);
}
