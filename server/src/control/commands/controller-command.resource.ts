import { z } from 'zod';
import { labelOf } from '../../../../shared/access/resources';
import type { ResourceDefinition } from '../../crud/resource';
import { secretArgs } from './command-checks';
import { COMMAND_SELECT_EXPRESSIONS, declaredCommandsOfController } from './controller-type-commands.repository';
import { ZCommandRecord } from './commands.schema';

const { id: _id, ...recordShape } = ZCommandRecord.shape;

/**
 * Commands of the controllers a caller sees (read-only: commands are made by
 * controllerCommand.send). Scoped by the controller's owner company when requested.
 */
export const controllerCommandResource: ResourceDefinition<z.ZodObject<typeof recordShape>, z.ZodObject, z.ZodObject> = {
  name: 'controllerCommand',
  label: labelOf('controllerCommand'),
  table: 'controller_command',
  key: 'command_id',
  generatedKey: true,
  record: z.object(recordShape),
  // Not used: commands are written by `send` only.
  create: z.object({}),
  update: z.object({}),
  // Only the reads are mounted (access/resources.ts: list and show need controllers.view).
  perms: { view: 'controllers.view', create: 'controllers.configure', edit: 'controllers.configure', delete: 'controllers.configure' },
  importable: false,
  // A payload's secret values (an apply_config's wifi_psk …) only for whoever may send commands; the controller gets them as sent.
  secrets: {
    columns: ['payload', 'applied_config'],
    perm: 'controllers.configure',
    // …and the arguments its controller type declares secret.
    declared: async (manager, row, memo) => {
      const id = String(row.controller_id);
      let commands = memo.get(id);
      if (!commands) memo.set(id, (commands = declaredCommandsOfController(manager, id)));
      return secretArgs(String(row.kind), await commands);
    },
  },
  scope: { kind: 'company', column: 'company_cuid' },
  search: ['kind', 'controller_id', 'message'],
  filters: ['controller_id', 'system_cuid', 'status', 'kind', 'requested_by'],
  sorts: ['requested_at', 'status', 'kind'],
  defaultSort: { field: 'requested_at', order: 'DESC' },
  selectExpressions: COMMAND_SELECT_EXPRESSIONS,
};
