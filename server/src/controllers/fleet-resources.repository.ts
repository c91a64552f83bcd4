import type { EntityManager } from 'typeorm';

/**
 * The SQL of the controller, device and data-processor resources (fleet.resources.ts): the
 * fragments the CRUD factory puts into its queries (alias `t` = the resource's row, always inside
 * its tenant scope) and the catalogue lookups of their write hooks. The catalogue is everybody's:
 * its reads are unscoped and run in the write's transaction (`manager`).
 */

/** Entity rows whose type is (`device` true) or is not (false) of kind Device. */
export const entityKindWhere = (device: boolean): string =>
  `EXISTS (SELECT 1 FROM entity_type et WHERE et.entitytype_id = t.entitytype_id AND et.entity_type ${device ? '=' : '<>'} 'Device')`;

/** A controller's online state and last contact: key probes of the state tables, for the page's rows unless sorted by them. */
export const controllerStateColumns = () => ({
  joins: `LEFT JOIN controller_online_state cos ON cos.controller_id = t.controller_id
          LEFT JOIN controller_presence cpr ON cpr.controller_id = t.controller_id`,
  columns: { online_state: 'cos.online_state::text', last_contact: 'cpr.last_seen_at' },
  // Worst first ascending, as the systems' state.
  sortExpressions: { online_state: `(CASE cos.online_state WHEN 'OFFLINE' THEN 0 WHEN 'UNSTABLE' THEN 1 WHEN 'ONLINE' THEN 2 END)` },
});

/** The kind (Device, CalculatedValue …) of an entity type, undefined when there is no such type. */
export async function entityTypeKind(manager: EntityManager, entitytype_id: unknown): Promise<string | undefined> {
  const [type] = await manager.query<{ kind: string }[]>(`SELECT entity_type::text AS kind FROM entity_type WHERE entitytype_id = $1`, [entitytype_id]);
  return type?.kind;
}
