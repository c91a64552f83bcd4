import type { EntityManager } from 'typeorm';

/**
 * The statements of the catalogues' write hooks. The catalogues are global (kept by superusers,
 * read by every company): they run in the writer's transaction (`tx` first) on a row the CRUD has
 * already authorized, and answer facts about that row only.
 */

/** Where a log parameter is still used (the first of: device types, device categories, alert triggers, alert templates, telemetry), or null. */
export async function logParameterUse(tx: EntityManager, parameter_id: string): Promise<string | null> {
  const [use] = await tx.query<{ use: string | null }[]>(
    `SELECT CASE
       WHEN EXISTS (SELECT 1 FROM entity_type_log_parameter_assignment WHERE parameter_id = $1) THEN 'device types'
       WHEN EXISTS (SELECT 1 FROM entity_category_log_parameter_assignment WHERE parameter_id = $1) THEN 'device categories'
       WHEN EXISTS (SELECT 1 FROM notification_trigger WHERE jsonb_path_exists(args, '$.** ? (@ == $p)', jsonb_build_object('p', $1::text))) THEN 'alert triggers'
       WHEN EXISTS (SELECT 1 FROM notification_template_assignment WHERE jsonb_path_exists(args, '$.** ? (@ == $p)', jsonb_build_object('p', $1::text))) THEN 'alert templates'
       WHEN EXISTS (SELECT 1 FROM parameter_rollup_5m WHERE parameter_id = $1) OR EXISTS (SELECT 1 FROM parameter_rollup_1h WHERE parameter_id = $1)
         OR EXISTS (SELECT 1 FROM parameter_rollup_1d WHERE parameter_id = $1)
         -- raw rows: one index probe per device (the key starts with the device)
         OR EXISTS (SELECT 1 FROM entity e WHERE EXISTS (SELECT 1 FROM parameter_log l WHERE l.entity_cuid = e.entity_cuid AND l.parameter_id = $1)) THEN 'telemetry'
     END AS use`,
    [parameter_id],
  );
  return use?.use ?? null;
}
