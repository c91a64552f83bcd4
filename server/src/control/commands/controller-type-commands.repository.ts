import type { EntityManager } from 'typeorm';

/** The commands the type of a controller declares (controller_type.commands, unparsed), or undefined. */
export async function declaredCommandsOfController(manager: EntityManager, controller_id: string): Promise<unknown> {
  const [type] = (await manager.query(
    `SELECT ct.commands FROM controller c JOIN controller_type ct ON ct.controllertype_cuid = c.controllertype_cuid WHERE c.controller_id = $1`,
    [controller_id],
  )) as { commands: unknown }[];
  return type?.commands;
}
