import type { EntityManager } from 'typeorm';

/** The commands the type of a controller declares (controller_type.commands, unparsed), or undefined. */
export async function declaredCommandsOfController(manager: EntityManager, controller_id: string): Promise<unknown> {
  const [type] = await manager.query<{ commands: unknown }[]>(
    `SELECT ct.commands FROM controller c JOIN controller_type ct ON ct.controllertype_cuid = c.controllertype_cuid WHERE c.controller_id = $1`,
    [controller_id],
  );
  return type?.commands;
}

/** The computed columns of the controllerCommand resource (alias `t` = controller_command; the CRUD factory scopes the rows). */
export const COMMAND_SELECT_EXPRESSIONS = {
  controller_name: `(SELECT c.name FROM controller c WHERE c.controller_id = t.controller_id)`,
  requester_name: `(SELECT u.name FROM "user" u WHERE u.user_cuid = t.requested_by)`,
  status: `t.status::text`,
};
