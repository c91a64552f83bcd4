import { z } from 'zod';
import type { Permission } from '../auth/policy';
import { createCallerFactory, procedure, router } from '../trpc/trpc';
import { crudRouter } from '../crud/crud-router.factory';
import type { CrudService } from '../crud/crud.service';
import type { ResourceDefinition } from '../crud/resource';

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
  const createData = def.create.strict();
  const updateData = def.update.strict();
  const dataOf = (input: unknown): unknown => (input && typeof input === 'object' ? (input as { data?: unknown }).data : undefined);
  const editable = new Set(Object.keys(def.update.shape));

  const write = (name: (typeof WRITES)[number]) =>
    procedure
      .meta({ perm: perms[name] })
      .input(z.unknown())
      .mutation(async ({ ctx, input }) => {
        try {
          if (hooks.check && name === 'create') {
            const parsed = createData.safeParse(dataOf(input));
            if (parsed.success) await hooks.check('create', parsed.data as Row);
          }
          if (hooks.check && (name === 'update' || name === 'updateMany')) {
            const raw = dataOf(input);
            const picked = raw && typeof raw === 'object' ? Object.fromEntries(Object.entries(raw).filter(([k]) => editable.has(k))) : raw;
            const parsed = updateData.safeParse(name === 'update' ? picked : raw);
            if (parsed.success) await hooks.check('update', parsed.data as Row);
          }
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
