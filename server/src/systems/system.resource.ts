import { z } from 'zod';
import type { ResourceDefinition } from '../crud/resource';
import { ZIsoDate, ZName, ZOptionalText, ZRefCuid, ZTimezone } from '../../../shared/common/zod-fields';
import { resourceAccess } from '../../../shared/access/resources';
import { SYSTEM_STATES } from '../../../shared/common/enums';
import { fieldError } from '../common/field-error';
import { ZBoolFilter } from '../crud/list-query';
import { SYSTEM_SELECT_EXPRESSIONS, systemListStateSql } from './system.repository';

export const ZSystem = z.object({
  system_cuid: z.string(),
  company_cuid: z.string(),
  name: z.string(),
  deployment_date: z.string().nullable(),
  asset_number: z.string().nullable(),
  timezone: z.string(),
  site_cuid: z.string().nullable(),
  /**
   * Names of the site and owner company, read with the system: a role that may not read sites or
   * companies (Basic) still sees what the system belongs to, without calling site.* or company.*.
   */
  site_name: z.string().nullable(),
  company_name: z.string().nullable(),
  /** The system's state (systems/system-state.repository.ts, the same as the fleet overview's). */
  online_state: z.enum(SYSTEM_STATES),
  /** Latest contact of any of its controllers. */
  last_contact: z.date().nullable(),
  /** Active alarms (active triggers in state TRIGGERED). */
  active_alarms: z.number().int(),
  /** Battery state of charge (%), the latest FLEET_SOC_PARAMETER value of its devices. */
  soc: z.number().nullable(),
  /** PV kWh since local midnight (the system's time zone). */
  energy_today_kwh: z.number().nullable(),
});

const ZStateFilter = z.enum(SYSTEM_STATES);
const ZOfflineHours = z.coerce.number().positive().max(100_000);
/** A filter value, or a field error on `filter.<name>`. */
function filterValue<T>(name: string, schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) throw fieldError(['filter', name], r.error.issues[0]?.message ?? 'Invalid filter');
  return r.data;
}

export const systemResource: ResourceDefinition<typeof ZSystem, z.ZodObject, z.ZodObject> = {
  name: 'system',
  table: 'system',
  key: 'system_cuid',
  generatedKey: true,
  record: ZSystem,
  create: z.object({
    company_cuid: ZRefCuid,
    name: ZName,
    deployment_date: ZIsoDate.nullable().optional(),
    asset_number: ZOptionalText(100),
    timezone: ZTimezone.default('UTC'),
    site_cuid: ZRefCuid.nullable().optional(),
  }),
  // The owner company is not editable: moving a system between companies is not an edit.
  update: z
    .object({
      name: ZName,
      deployment_date: ZIsoDate.nullable(),
      asset_number: ZOptionalText(100),
      timezone: ZTimezone,
      site_cuid: ZRefCuid.nullable(),
    })
    .partial(),
  ...resourceAccess('system'),
  scope: { kind: 'systemSelf' },
  search: ['name', 'asset_number'],
  filters: ['company_cuid', 'site_cuid', 'timezone'],
  sorts: ['name', 'deployment_date', 'asset_number', 'timezone', 'created_at', 'online_state', 'last_contact', 'active_alarms', 'soc', 'energy_today_kwh'],
  defaultSort: { field: 'name', order: 'ASC' },
  sameCompanyReferences: [{ column: 'site_cuid', table: 'site', key: 'site_cuid', label: 'Site' }],
  selectExpressions: SYSTEM_SELECT_EXPRESSIONS,
  // State, last contact, alarms, SoC and today's energy: computed for the page's rows only, unless the
  // list is sorted or filtered by one of them (SQL in system.repository.ts; filter values checked here).
  computed: (p, config) => {
    const settings = { socParameter: config.FLEET_SOC_PARAMETER, staleMinutes: config.FLEET_STALE_MINUTES, lowSocPercent: config.FLEET_LOW_SOC_PERCENT };
    const { joins, sortExpressions, columns, filters } = systemListStateSql(p, settings);
    return {
      joins,
      sortExpressions,
      columns,
      filters: {
        state: (v, q) => filters.state(filterValue('state', ZStateFilter, v), q),
        in_alarm: (v) => filters.inAlarm(filterValue('in_alarm', ZBoolFilter, v)),
        offline_for_hours: (v, q) => filters.offlineForHours(filterValue('offline_for_hours', ZOfflineHours, v), q),
      },
    };
  },
};
