import { z } from 'zod';
import type { EntityManager } from 'typeorm';
import { type Actor, levelIn } from '../../../shared/access/policy';
import { budgetsOf } from '../budgets/budgets.service';
import { ZName, ZRefCuid } from '../../../shared/common/zod-fields';
import type { ResourceDefinition } from '../crud/resource';
import { fieldErrors } from '../common/field-error';
import { resourceAccess } from '../../../shared/access/resources';
import { ZExportConfig, ZExportConfigShape, type TExportConfig } from '../../../shared/exports/export-config.schema';
import { chargedCompany } from './export-fairness';
import { exportTemplatesSql as sql } from './export-templates.repository';

/**
 * The checks of a template's config that need the database, as field errors on the exact path
 * (`data.config.columns.2.parameter_id` …): every column names a device of THE TEMPLATE'S SYSTEM
 * (a device of another system answers exactly like a missing one: "not a device of this system")
 * and a parameter that device's type logs; every recipient is a verified, active email channel of
 * `recipientsOf`, the company the schedule is charged to (it pays for the mails).
 */
export async function checkExportConfig(
  tx: EntityManager,
  system_cuid: string,
  config: TExportConfig,
  recipientsOf: string,
  base: (string | number)[] = ['data', 'config'],
): Promise<void> {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const devices = await sql.devicesOf(tx, system_cuid, [...new Set(config.columns.map((c) => c.entity_cuid))]);
  const byId = new Map(devices.map((d) => [d.entity_cuid, new Set(d.parameters)]));
  config.columns.forEach((c, i) => {
    const params = byId.get(c.entity_cuid);
    if (!params) issues.push({ path: [...base, 'columns', i, 'entity_cuid'], message: 'Not a device of this system' });
    else if (!params.has(c.parameter_id)) issues.push({ path: [...base, 'columns', i, 'parameter_id'], message: 'This device does not log this parameter' });
  });
  const recipients = config.schedule?.recipients ?? [];
  if (recipients.length) {
    const good = await sql.mailableChannels(tx, recipients, recipientsOf);
    recipients.forEach((r, i) => {
      if (!good.has(r)) issues.push({ path: [...base, 'schedule', 'recipients', i], message: 'Not a verified, active email channel of your company' });
    });
  }
  if (issues.length) throw fieldErrors(issues, 'The export template is not valid');
}

const scheduleOf = (config: unknown) => {
  const parsed = ZExportConfigShape.safeParse(config ?? {});
  return parsed.success ? (parsed.data.schedule ?? null) : null;
};

/**
 * Who pays for a template's schedule (docs/security.md "Budgets and fair shares"): whoever sets or
 * changes the schedule charges it to the company through which they see the system (chargedCompany,
 * as exportJob.start does: the owner for its members, else the partner company of the share), with
 * room under EXPORT_SCHEDULES_PER_COMPANY there. Kept when the schedule is left as it was. Answers
 * the charged company (whose channels the schedule may mail).
 */
async function chargeSchedule(
  tx: EntityManager,
  actor: Actor,
  row: Record<string, unknown>,
  config: TExportConfig,
  current?: Record<string, unknown>,
): Promise<string> {
  const system_cuid = String(row.system_cuid);
  const kept = current ? await sql.chargeOf(tx, String(current.template_cuid)) : undefined;
  const before = current ? scheduleOf(current.config) : null;
  if (!config.schedule || (kept && before && JSON.stringify(before) === JSON.stringify(config.schedule))) {
    return kept ?? (await sql.systemOf(tx, system_cuid))?.company_cuid ?? '';
  }
  const system = await sql.systemOf(tx, system_cuid);
  if (!system) return '';
  const charged = chargedCompany(actor, system);
  // A template already scheduled and charged to this company is counted there already.
  if (!(before && kept === charged)) await budgetsOf(tx).assertRoom(tx, 'schedules', charged);
  if (current) await sql.setCharge(tx, String(current.template_cuid), charged);
  else row.charged_company_cuid = charged;
  return charged;
}

/**
 * A schedule's recipients are email channels of the company it is charged to: a reader sees only
 * the ids of channels of companies they belong to (a partner never reads the owner's channel ids,
 * nor the owner a partner's); a superuser sees all.
 */
async function withOwnRecipients(actor: Actor, rows: Record<string, unknown>[], manager: EntityManager): Promise<Record<string, unknown>[]> {
  if (actor.memberships.some((m) => m.level === 0)) return rows;
  const recipientsOf = (row: Record<string, unknown>): unknown[] | undefined => {
    const schedule = (row.config as { schedule?: { recipients?: unknown } } | null)?.schedule;
    return schedule && Array.isArray(schedule.recipients) ? schedule.recipients : undefined;
  };
  const ids = [...new Set(rows.flatMap((r) => recipientsOf(r) ?? []).filter((id): id is string => typeof id === 'string'))];
  if (!ids.length) return rows;
  const companies = await sql.channelCompanies(manager, ids);
  const mine = (id: unknown) => typeof id === 'string' && Number.isFinite(levelIn(actor, companies.get(id)));
  return rows.map((row) => {
    const recipients = recipientsOf(row);
    if (!recipients || recipients.every(mine)) return row;
    const config = row.config as { schedule: Record<string, unknown> };
    return { ...row, config: { ...config, schedule: { ...config.schedule, recipients: recipients.filter(mine) } } };
  });
}

/** Data export templates of a system (configuration: view with the system, change like the system). */
export const exportTemplateResource: ResourceDefinition<z.ZodObject, z.ZodObject, z.ZodObject> = {
  name: 'systemDataExportTemplate',
  table: 'system_data_export_template',
  key: 'template_cuid',
  generatedKey: true,
  record: z.object({ template_cuid: z.string(), name: z.string(), config: z.record(z.string(), z.unknown()), system_cuid: z.string() }),
  create: z.object({ name: ZName, config: ZExportConfig.default(ZExportConfigShape.parse({})), system_cuid: ZRefCuid }),
  update: z.object({ name: ZName, config: ZExportConfig }).partial(),
  ...resourceAccess('systemDataExportTemplate'),
  scope: { kind: 'system', column: 'system_cuid' },
  search: ['name'],
  filters: ['system_cuid'],
  sorts: ['name'],
  defaultSort: { field: 'name', order: 'ASC' },
  beforeWrite: async (tx, actor, row, current) => {
    // An update that leaves the config alone (a rename) does not re-judge it.
    if (row.config === undefined || (current && row.config === current.config)) return;
    const config = ZExportConfigShape.parse(row.config);
    const charged = await chargeSchedule(tx, actor, row, config, current);
    await checkExportConfig(tx, String(row.system_cuid), config, charged);
  },
  present: withOwnRecipients,
};
