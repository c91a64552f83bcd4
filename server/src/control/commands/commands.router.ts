import { crudProcedures } from '../../crud/crud-router.factory';
import { CrudService } from '../../crud/crud.service';
import { procedure, router } from '../../trpc/trpc';
import { declareRoutes } from '../../trpc/routes';
import { CommandService } from './command.service';
import { ConfigService } from './config.service';
import { ZApplyConfigInput, ZCommandRecord, ZControllerConfig, ZSendCommandInput } from './commands.schema';
import { controllerCommandResource } from './controller-command.resource';
import { z } from 'zod';

/** controllerCommand: send, and the react-admin reads of the command history. */
export const controllerCommandRoutes = declareRoutes({ commands: CommandService, crud: CrudService }, ({ commands, crud }) => {
  const { getList, getOne, getMany, getManyReference, access } = crudProcedures(controllerCommandResource, crud);
  return router({
    getList,
    getOne,
    getMany,
    getManyReference,
    access,
    /** Sends a command to a controller (PENDING at once, delivered when it is reachable). */
    send: procedure
      .meta({ perm: 'controllers.configure' })
      .input(ZSendCommandInput)
      .output(ZCommandRecord)
      .mutation(({ ctx, input }) => commands.send(ctx.actor, ctx.session, input, ctx.req?.ip ?? 'unknown')),
  });
});

/** controllerConfig: desired against reported configuration, and "apply the difference". */
export const controllerConfigRoutes = declareRoutes({ config: ConfigService }, ({ config }) =>
  router({
    get: procedure
      .meta({ perm: 'controllers.view' })
      .input(z.object({ controller_id: z.string().trim().min(1).max(64) }).strict())
      .output(ZControllerConfig)
      .query(({ ctx, input }) => config.get(ctx.actor, input.controller_id)),
    // Not `apply`: tRPC reserves that name in a router.
    applyDifference: procedure
      .meta({ perm: 'controllers.configure' })
      .input(ZApplyConfigInput)
      .output(ZCommandRecord)
      .mutation(({ ctx, input }) => config.apply(ctx.actor, ctx.session, input, ctx.req?.ip ?? 'unknown')),
  }),
);
