import { z } from 'zod';
import type { Actor, Permission } from '../../../shared/access/policy';
import { procedure, router } from '../trpc/trpc';
import { accessProcedure, readProcedures } from './procedures';
import { contextLocale } from '../trpc/context-locale';
import { ZDeleteManyParams, ZDeleteParams } from './crud.schema';
import type { CrudService } from './crud.service';
import type { ResourceDefinition } from './resource';

const ZIdList = z.object({ data: z.array(z.string()) });

/** `<resource>.dependents`: what deleting these records does to the rows that depend on them. */
export const ZDependentsParams = z.object({
  ids: z
    .array(z.union([z.string().min(1).max(64), z.number()]).transform(String))
    .min(1)
    .max(100),
});
export const ZDependentsResult = z.object({
  data: z.object({
    /** False when the caller may not delete every record (then nothing more is told). */
    deletable: z.boolean(),
    /** Some dependent rows stop the delete (the database refuses it while they exist). */
    blocked: z.boolean(),
    dependents: z.array(
      z.object({
        kind: z.string(),
        action: z.enum(['delete', 'unlink', 'block']),
        count: z.number(),
        more: z.boolean(),
        label: z.string(),
      }),
    ),
    /** The sentence for the delete confirmation, in the caller's language. */
    message: z.string(),
  }),
});

type Row = Record<string, unknown>;

/**
 * What a router adds around the generated writes, for checks and effects that need services the
 * resource definition cannot hold (a query outside the write, a cache).
 */
export interface CrudHooks {
  /**
   * Checks that need the database, on valid input before the write reaches the service (so
   * before its scope and permission checks): `create` gets the new row, `update` and
   * `updateMany` the changes, with the caller: a check must not look at rows the caller does not
   * see (the write answers NOT_FOUND for those; an answer of the check would tell them apart from
   * missing ones). Throws a TRPCError.
   */
  checkInput?: (kind: 'create' | 'update', data: Row, ids: readonly string[] | undefined, actor: Actor) => Promise<void>;
  /** Runs after every write (create, update, updateMany, delete, deleteMany), done or refused (e.g. drop a cache). */
  afterWrite?: () => void;
  /**
   * Runs after a write committed, with the keys it touched, (create, update) the data sent and the
   * actor who wrote: effects that follow a change (derived rows charged to the writer, a reload).
   * Its own failure answers as an error, though the write stays.
   */
  afterCommit?: (done: { kind: 'create' | 'update' | 'delete'; ids: string[]; data?: Row; actor: Actor }) => Promise<void>;
}

type Check = { kind: 'create' | 'update'; data: unknown; ids?: readonly string[]; actor: Actor };
type Done = { kind: 'create' | 'update' | 'delete'; ids: (result: unknown) => string[]; data?: unknown; actor: Actor };

/** Runs `write` between the hooks: `checkInput` first (when `data` is given), `afterCommit` on success, `afterWrite` always. */
async function hooked<T>(hooks: CrudHooks, check: Check | undefined, write: () => Promise<T>, done?: Done): Promise<T> {
  try {
    if (check && hooks.checkInput) await hooks.checkInput(check.kind, check.data as Row, check.ids, check.actor);
    const result = await write();
    if (done && hooks.afterCommit) await hooks.afterCommit({ kind: done.kind, ids: done.ids(result), data: done.data as Row | undefined, actor: done.actor });
    return result;
  } finally {
    hooks.afterWrite?.();
  }
}

const createdId = (r: unknown): string[] => [String((r as { data: { id: unknown } }).data.id)];
const listedIds = (r: unknown): string[] => (r as { data: unknown[] }).data.map(String);

/** Rows of a CSV file (strings, one object per line, header names as keys). */
export const ZImportManyParams = z.object({
  rows: z
    .array(z.record(z.string().max(64), z.unknown()))
    .min(1, 'The file has no rows')
    .max(1000, 'At most 1,000 rows per import'),
  mode: z.enum(['validate', 'all', 'validOnly']),
});
export const ZImportManyResult = z.object({
  created: z.number(),
  ids: z.array(z.string()),
  errors: z.array(z.object({ row: z.number(), field: z.string().optional(), message: z.string() })),
});

/**
 * react-admin's nine data-provider calls for one resource, as tRPC procedures named
 * `<resource>.getList` …; inputs are react-admin's params, outputs its result shapes. An importable
 * resource (a `csv` entry in access/resources.ts) also gets `importMany`: rows from a CSV file
 * coerced and checked like `create` (`validate` writes nothing, `all` every row or none,
 * `validOnly` the rows without errors).
 */
export function crudRouter<TRecord extends z.ZodObject, TCreate extends z.ZodObject, TUpdate extends z.ZodObject>(
  def: ResourceDefinition<TRecord, TCreate, TUpdate>,
  crud: CrudService,
  hooks: CrudHooks = {},
) {
  const base = def as unknown as ResourceDefinition;
  const importMany = procedure
    .meta({ perm: def.perms.create })
    .input(ZImportManyParams)
    .output(ZImportManyResult)
    .mutation(({ ctx, input }) =>
      hooked(hooks, undefined, () => crud.importMany(ctx.actor, base, input.rows, input.mode, contextLocale(ctx)), {
        kind: 'create',
        ids: (r) => (r as { ids: string[] }).ids,
        actor: ctx.actor,
      }),
    );
  return router({ ...crudProcedures(def, crud, hooks), ...(def.importable ? { importMany } : {}) });
}

/**
 * One-column update guarded by other permissions than the resource's edit permission (each must
 * hold against the record), e.g. `dataProcessor.configure` for its config JSON.
 */
export function guardedUpdateProcedure<TInput extends z.ZodType<{ id: string }>>(
  def: ResourceDefinition,
  crud: CrudService,
  opts: { perm: Permission; also?: readonly Permission[]; input: TInput },
) {
  const Rec = def.record.extend({ id: z.string() });
  return procedure
    .meta({ perm: opts.perm })
    .input(opts.input)
    .output(z.object({ data: Rec }))
    .mutation(({ ctx, input }) => {
      const { id, ...changes } = input as { id: string } & Record<string, unknown>;
      return crud.updateWith(ctx.actor, def, id, changes, [opts.perm, ...(opts.also ?? [])]);
    });
}

/** The nine procedures as a plain object, for routers that keep some and add their own. */
export function crudProcedures<TRecord extends z.ZodObject, TCreate extends z.ZodObject, TUpdate extends z.ZodObject>(
  def: ResourceDefinition<TRecord, TCreate, TUpdate>,
  crud: CrudService,
  hooks: CrudHooks = {},
) {
  const base = def as unknown as ResourceDefinition;
  const Rec = def.record.extend({ id: z.string() });
  const ZCreateParams = z.object({ data: def.create.strict(), meta: z.unknown().optional() });
  const ZUpdateParams = z.object({
    id: z.union([z.string().min(1).max(64), z.number()]).transform(String),
    data: def.update.strict(),
    previousData: z.unknown().optional(),
    meta: z.unknown().optional(),
  });
  const ZUpdateManyParams = z.object({
    ids: z
      .array(z.union([z.string().min(1).max(64), z.number()]).transform(String))
      .min(1)
      .max(1000),
    data: def.update.strict(),
    meta: z.unknown().optional(),
  });
  /** react-admin sends whole records on update; fields that are not editable are dropped first. */
  const editable = new Set(Object.keys(def.update.shape));
  const pickEditable = (data: unknown) => Object.fromEntries(Object.entries((data ?? {}) as Record<string, unknown>).filter(([k]) => editable.has(k)));

  return {
    ...readProcedures({
      perm: def.perms.view,
      record: Rec,
      source: {
        getList: (actor, input, reference) => crud.getList(actor, base, input, reference) as never,
        getOne: (actor, id) => crud.getOne(actor, base, id) as never,
        getMany: (actor, ids) => crud.getMany(actor, base, ids) as never,
      },
    }),
    create: procedure
      .meta({ perm: def.perms.create })
      .input(ZCreateParams)
      .output(z.object({ data: Rec }))
      .mutation(
        ({ ctx, input }) =>
          hooked(hooks, { kind: 'create', data: input.data, actor: ctx.actor }, () => crud.create(ctx.actor, base, input.data as Row), {
            kind: 'create',
            ids: createdId,
            data: input.data,
            actor: ctx.actor,
          }) as never,
      ),
    update: procedure
      .meta({ perm: def.perms.edit })
      .input(z.preprocess((raw) => (raw && typeof raw === 'object' ? { ...raw, data: pickEditable((raw as { data?: unknown }).data) } : raw), ZUpdateParams))
      .output(z.object({ data: Rec }))
      .mutation(
        ({ ctx, input }) =>
          hooked(
            hooks,
            { kind: 'update', data: input.data, ids: [input.id], actor: ctx.actor },
            () => crud.update(ctx.actor, base, input.id, input.data as Row),
            {
              kind: 'update',
              ids: () => [input.id],
              data: input.data,
              actor: ctx.actor,
            },
          ) as never,
      ),
    updateMany: procedure
      .meta({ perm: def.perms.edit })
      .input(ZUpdateManyParams)
      .output(ZIdList)
      .mutation(({ ctx, input }) =>
        hooked(
          hooks,
          { kind: 'update', data: input.data, ids: input.ids, actor: ctx.actor },
          () => crud.updateMany(ctx.actor, base, input.ids, input.data as Row),
          {
            kind: 'update',
            ids: listedIds,
            data: input.data,
            actor: ctx.actor,
          },
        ),
      ),
    delete: procedure
      .meta({ perm: def.perms.delete })
      .input(ZDeleteParams)
      .output(z.object({ data: Rec }))
      .mutation(
        ({ ctx, input }) =>
          hooked(hooks, undefined, () => crud.delete(ctx.actor, base, input.id), { kind: 'delete', ids: () => [input.id], actor: ctx.actor }) as never,
      ),
    deleteMany: procedure
      .meta({ perm: def.perms.delete })
      .input(ZDeleteManyParams)
      .output(ZIdList)
      .mutation(({ ctx, input }) =>
        hooked(hooks, undefined, () => crud.deleteMany(ctx.actor, base, input.ids), { kind: 'delete', ids: listedIds, actor: ctx.actor }),
      ),
    access: accessProcedure(def.perms.view, (actor, ids) => crud.access(actor, base, ids)),
    dependents: procedure
      .meta({ perm: def.perms.view })
      .input(ZDependentsParams)
      .output(ZDependentsResult)
      .query(({ ctx, input }) => crud.dependents(ctx.actor, base, input.ids, contextLocale(ctx))),
  };
}
