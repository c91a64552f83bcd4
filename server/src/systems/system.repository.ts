import type { SqlParams } from '../database/sql-params';
import { stateRankSql, systemStateColumns, systemStateJoinsSql, type SystemStateSettings } from './system-state.repository';

/**
 * The SQL fragments of the systems list that the generic CRUD composes into its statements (its
 * query builder applies the caller's scope): names read with a system, and its state columns with
 * their sorts and filters. Values arrive checked (system.resource.ts) and become parameters.
 */

/** Record fields read with each system row (alias `t`). */
export const SYSTEM_SELECT_EXPRESSIONS = {
  deployment_date: 't.deployment_date::text',
  site_name: '(SELECT si.name FROM site si WHERE si.site_cuid = t.site_cuid)',
  company_name: '(SELECT c.name FROM company c WHERE c.company_cuid = t.company_cuid)',
};

/** State, last contact, alarms, SoC and today's energy of the system row `t` (system-state.repository.ts), with their sorts and filters. */
export function systemListStateSql(p: SqlParams, settings: SystemStateSettings) {
  const joins = systemStateJoinsSql('t', p, settings);
  const c = systemStateColumns(settings);
  return {
    joins,
    // Worst first (ALARM … UNKNOWN) ascending.
    sortExpressions: { online_state: stateRankSql(c.online_state) },
    columns: {
      online_state: c.online_state,
      last_contact: c.last_contact,
      active_alarms: c.active_alarms,
      soc: c.soc,
      energy_today_kwh: c.energy_today_kwh,
    },
    filters: {
      state: (state: string, q: SqlParams) => `${c.online_state} = ${q.add(state)}`,
      inAlarm: (inAlarm: boolean) => (inAlarm ? `${c.active_alarms} > 0` : `${c.active_alarms} = 0`),
      offlineForHours: (hours: number, q: SqlParams) => `${c.offline_since} < now() - make_interval(secs => ${q.add(hours * 3600)}::float8)`,
    },
  };
}
