import { z } from 'zod';
import type { Actor, Permission } from '../../../shared/access/policy';
import { procedure } from '../trpc/trpc';
import { ZDeleteManyParams, ZDeleteParams, ZGetListParams, ZGetManyParams, ZGetManyReferenceParams, ZGetOneParams } from './crud.schema';

/*
 * react-admin's read and delete procedures over any source of records: the generated CRUD
 * (crudProcedures) and the hand-written routers (users, memberships, tokens, files, shares) build
 * them here, so every resource answers the same calls with the same input and output shapes.
 */

type ReferenceInput = { target: string; id: string };

/** The records of a resource as react-admin reads them. */
export interface ReadSource<TRecord, TList, TTarget extends string = string> {
  /** A list, or (getManyReference) the records whose `target` is `id`. */
  getList(actor: Actor, input: TList, reference?: { target: TTarget; id: string }): Promise<{ data: TRecord[]; total: number }>;
  getOne(actor: Actor, id: string): Promise<{ data: TRecord }>;
  getMany(actor: Actor, ids: string[]): Promise<{ data: TRecord[] }>;
}

const ZAccess = z.object({ data: z.record(z.string(), z.object({ edit: z.boolean(), delete: z.boolean() })) });

/**
 * getList, getOne, getMany, getManyReference, all under `perm`. `list` and `reference` are the input schemas (react-admin's by default; a resource with
 * its own filters and sorts passes listParams / referenceParams).
 */
export function readProcedures<
  TRecord extends z.ZodType,
  TList extends z.ZodType = typeof ZGetListParams,
  TReference extends z.ZodType<ReferenceInput> = typeof ZGetManyReferenceParams,
>(opts: {
  perm: Permission;
  record: TRecord;
  list?: TList;
  reference?: TReference;
  source: ReadSource<z.output<TRecord>, z.output<TList>, z.output<TReference>['target']>;
}) {
  const { perm, record, source } = opts;
  const list = (opts.list ?? ZGetListParams) as TList;
  const reference = (opts.reference ?? ZGetManyReferenceParams) as TReference;
  const ZList = z.object({ data: z.array(record), total: z.number() });
  const reads = {
    getList: procedure
      .meta({ perm })
      .input(list)
      .output(ZList)
      .query(({ ctx, input }) => source.getList(ctx.actor, input as z.output<TList>) as never),
    getOne: procedure
      .meta({ perm })
      .input(ZGetOneParams)
      .output(z.object({ data: record }))
      .query(({ ctx, input }) => source.getOne(ctx.actor, input.id) as never),
    getMany: procedure
      .meta({ perm })
      .input(ZGetManyParams)
      .output(z.object({ data: z.array(record) }))
      .query(({ ctx, input }) => source.getMany(ctx.actor, input.ids) as never),
    getManyReference: procedure
      .meta({ perm })
      .input(reference)
      .output(ZList)
      .query(({ ctx, input }) => {
        const ref = input as z.output<TReference>;
        return source.getList(ctx.actor, input as unknown as z.output<TList>, { target: ref.target, id: ref.id }) as never;
      }),
  };
  return reads;
}

/**
 * What the caller may do with each visible record (the §6 target rules: owner company level,
 * shares with `change` …), so screens hide or disable what the server would refuse.
 * Invisible or unknown ids are left out.
 */
export function accessProcedure(perm: Permission, access: (actor: Actor, ids: string[]) => Promise<z.output<typeof ZAccess>>) {
  return procedure
    .meta({ perm })
    .input(ZGetManyParams)
    .output(ZAccess)
    .query(({ ctx, input }) => access(ctx.actor, input.ids));
}

/**
 * delete and deleteMany over a `remove` that takes ids and answers the removed records (all or
 * nothing), for hand-written resources: delete answers the record, deleteMany the ids (`idOf`).
 * `many` tells `remove` which of the two calls it serves (their permissions may differ).
 */
export function removeProcedures<TRecord extends z.ZodType>(opts: {
  perm: Permission;
  /** deleteMany's permission when it is not `perm`. */
  manyPerm?: Permission;
  record: TRecord;
  /** The id's schema when react-admin's default (1 to 64 characters, or a number) does not fit. */
  id?: z.ZodType<string, unknown>;
  remove: (actor: Actor, ids: string[], many: boolean) => Promise<z.output<TRecord>[]>;
  idOf: (record: z.output<TRecord>) => string;
}) {
  const { perm, record, remove, idOf } = opts;
  return {
    delete: procedure
      .meta({ perm })
      .input(opts.id ? ZDeleteParams.extend({ id: opts.id }) : ZDeleteParams)
      .output(z.object({ data: record }))
      .mutation(async ({ ctx, input }) => ({ data: (await remove(ctx.actor, [input.id], false))[0] }) as never),
    deleteMany: procedure
      .meta({ perm: opts.manyPerm ?? perm })
      .input(opts.id ? ZDeleteManyParams.extend({ ids: z.array(opts.id).min(1).max(1000) }) : ZDeleteManyParams)
      .output(z.object({ data: z.array(z.string()) }))
      .mutation(async ({ ctx, input }) => ({ data: (await remove(ctx.actor, input.ids, true)).map(idOf) })),
  };
}
