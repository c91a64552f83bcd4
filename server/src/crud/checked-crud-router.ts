import { z } from 'zod';
import type { Permission } from '../access/policy';
import { createCallerFactory, procedure, router } from '../trpc/trpc';
import { crudRouter } from './crud-router.factory';
import type { CrudService } from './crud.service';
import type { ResourceDefinition } from './resource';

type Row = Record<string, unknown>;
const WRITES = ['create', 'update', 'updateMany', 'delete', 'deleteMany'] as const;

export interface WriteHooks {
  /**
   * Checks that need the database, on valid input before the write (e.g. a reference exists):
   * `create` gets the new row, `update` the changes. Throws a TRPCError.
   */
  check?: (kind: 'create' | 'update', data: Row) => Promise<void>;
  /** Runs after every write, committed or refused (e.g. drop a cache). */
  afterWrite?: () => void;
}

/**
 * The generated router of a resource (react-admin's nine calls, inputs and outputs unchanged),
 * with checks before its writes and a hook after them. A write is handed to the generated
 * procedure as it came, so its validation, field errors and permission checks are the factory's.
 */
export function checkedCrudRouter(def: ResourceDefinition, crud: CrudService, hooks: WriteHooks) {
  const generated = crudRouter(def, crud);
  const caller = createCallerFactory(generated);
  const perms: Record<(typeof WRITES)[number], Permission> = {
    create: def.perms.create,
    update: def.perms.edit,
    updateMany: def.perms.edit,
    delete: def.perms.delete,
    deleteMany: def.perms.delete,
  };
  /** Each write keeps the generated procedure's own input schema (so bad input is refused here, with its field errors). */
  const procedures = generated._def.procedures as unknown as Record<string, { _def: { inputs: z.ZodType[] } }>;
  const inputOf = (name: string) => procedures[name]._def.inputs[0] as z.ZodType<{ data?: Row }>;

  const write = (name: (typeof WRITES)[number]) =>
    procedure
      .meta({ perm: perms[name] })
      .input(inputOf(name))
      .mutation(async ({ ctx, input }) => {
        try {
          if (hooks.check && input.data && name === 'create') await hooks.check('create', input.data);
          if (hooks.check && input.data && (name === 'update' || name === 'updateMany')) await hooks.check('update', input.data);
          // Parsing again is harmless: the generated schemas give the same value for their own output.
          return (await (caller(ctx as never)[name] as (input: unknown) => Promise<unknown>)(input)) as Row;
        } finally {
          hooks.afterWrite?.();
        }
      });

  return router({
    ...generated._def.record,
    create: write('create'),
    update: write('update'),
    updateMany: write('updateMany'),
    delete: write('delete'),
    deleteMany: write('deleteMany'),
  });
}
