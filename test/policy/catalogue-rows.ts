/**
 * Valid inputs for a plain catalogue resource, made from its definition's own schemas, so that the
 * policy matrix can give such a resource its rows without anyone writing them (matrix.fixture.ts,
 * `plainCatalogueRows`). The expectations stay spec §6's catalogue rule, written in the fixture;
 * only the inputs come from here.
 *
 * "Plain": every field its create schema requires is a value this file can make up (text, a
 * number, a yes/no, one of a list) and none is a reference to another row (a required `…_cuid` or
 * `…_id` other than the resource's own key): a reference needs a row to point at, which only a
 * hand-written sample knows how to make.
 */
import type { z } from 'zod';
import type { ResourceDefinition } from '../../server/src/crud/resource';
import { uniq } from '../factories/policy-world';

type Schema = z.ZodType;

const REFERENCE = /_(cuid|id)$/;

/** Values a field may take, most plausible first (each checked against the field's schema). */
function candidates(): unknown[] {
  const u = uniq('c');
  return [u, u.slice(0, 8), `https://${u}.example`, `${u}@policy.test`, 1, false, true, 0];
}

/** A value the field accepts, or undefined when none of ours fits (an enum takes its first option). */
function valueFor(field: Schema): unknown {
  const options = (field as unknown as { options?: readonly unknown[] }).options;
  const tries = Array.isArray(options) ? [options[0], ...candidates()] : candidates();
  return tries.find((v) => field.safeParse(v).success);
}

const shapeOf = (schema: Schema): Record<string, Schema> => (schema as unknown as { shape?: Record<string, Schema> }).shape ?? {};

/**
 * A valid create `data` for the resource (its required fields only), or a sentence saying why none
 * can be made here. Each call makes new unique values.
 */
export function sampleOf(def: ResourceDefinition): Record<string, unknown> | string {
  const data: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shapeOf(def.create))) {
    if (field.safeParse(undefined).success) continue; // optional, or has a default
    if (key !== def.key && REFERENCE.test(key)) return `${def.name}: its create input requires ${key}, a reference to another row`;
    const value = valueFor(field);
    if (value === undefined) return `${def.name}: no value made here fits its create input's ${key}`;
    data[key] = value;
  }
  return def.create.safeParse(data).success ? data : `${def.name}: the made-up create input is refused by its schema`;
}

/** A valid update `data` changing one text field (its description when it has one), or `{}`. */
export function changeOf(def: ResourceDefinition): Record<string, unknown> {
  const keys = Object.keys(shapeOf(def.update)).filter((k) => k !== def.key && !REFERENCE.test(k));
  for (const key of ['description', ...keys]) {
    const data = { [key]: uniq() };
    if (keys.includes(key) && def.update.safeParse(data).success) return data;
  }
  return {};
}
