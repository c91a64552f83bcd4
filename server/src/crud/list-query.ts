import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { SqlParams } from '../database/sql-params';
import { ZGetListParams } from './crud.schema';
import { ownEntry } from '../../../shared/common/own-entry';

/*
 * Small SQL helpers for react-admin lists (the generic CRUD and the hand-written routers: users,
 * memberships, roles, tokens): a LIKE needle, list params, a sort whitelist. Identifiers never
 * come from input; values are SqlParams (database/sql-params).
 */

/** `%text%` with LIKE's wildcards escaped. */
export const likeNeedle = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** react-admin select inputs may send booleans as strings. */
export const ZBoolFilter = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

/**
 * A whole-number filter: a number, or the digits a select input sends as text; '' means no
 * filter. Nothing else is turned into a number (no coercion: '' is not 0, true is not 1, and
 * "3,5" or "1.0" are refused rather than read as another number).
 */
export function ZWholeFilter(min: number, max: number) {
  return z.preprocess(
    (v) => (v === '' ? undefined : typeof v === 'string' && /^\s*-?\d{1,15}\s*$/.test(v) ? Number(v) : v),
    z.number().int().min(min).max(max).optional(),
  );
}

const ZFilterId = z.union([z.string().trim().min(1).max(64), z.number().int()]).transform(String);
/** `id` filter: one id or a list (react-admin's getMany-like list filters). */
export const ZIdFilter = z.union([ZFilterId, z.array(ZFilterId).max(1000)]).transform((v) => (Array.isArray(v) ? v : [v]));

/**
 * getList params with a filter schema of its own (unknown filters are refused with a field error)
 * and a sort field limited to `sorts` (key to column expression).
 */
export function listParams<F extends z.ZodRawShape>(filter: F, sorts: readonly [string, ...string[]]) {
  return ZGetListParams.extend({
    filter: z
      .object({ q: z.string().trim().max(200).optional(), id: ZIdFilter.optional(), ...filter })
      .strict()
      .default({} as never),
    sort: z
      .object({
        field: z.enum(sorts),
        order: z.enum(['ASC', 'DESC', 'asc', 'desc']).transform((o) => o.toUpperCase() as 'ASC' | 'DESC'),
      })
      .optional(),
  });
}

export function referenceParams<F extends z.ZodRawShape, T extends string>(filter: F, sorts: readonly [string, ...string[]], targets: readonly [T, ...T[]]) {
  return listParams(filter, sorts).extend({
    target: z.enum(targets),
    id: z.union([z.string().trim().min(1).max(64), z.number().int()]).transform(String),
  });
}

/** ORDER BY … LIMIT … OFFSET … from whitelisted sort columns. */
export function pageSql(
  p: SqlParams,
  params: { pagination: { page: number; perPage: number }; sort?: { field: string; order: 'ASC' | 'DESC' } },
  columns: Record<string, string>,
  fallback: { field: string; order: 'ASC' | 'DESC' },
  tieBreak: string,
): string {
  const sort = params.sort ?? fallback;
  const column = ownEntry(columns, sort.field);
  if (!column) throw new TRPCError({ code: 'BAD_REQUEST', message: `Cannot sort by ${sort.field}` });
  const { page, perPage } = params.pagination;
  return `ORDER BY ${column} ${sort.order === 'DESC' ? 'DESC' : 'ASC'} NULLS LAST, ${tieBreak} ASC
          LIMIT ${p.add(perPage)} OFFSET ${p.add((page - 1) * perPage)}`;
}
