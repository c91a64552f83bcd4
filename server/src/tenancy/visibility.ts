import type { Actor } from '../../../shared/access/policy';
import { scopeOf, type Scope } from '../access/scope';
import type { SqlParams } from '../database/sql-params';

/**
 * Spec §6 tenancy, written once: which systems, companies and shares a caller may see, as SQL
 * conditions with positional parameters. A superuser sees everything (`TRUE`); anybody else sees
 * what their companies own and the systems shared with their companies. Every service that
 * limits rows or answers NOT_FOUND for a foreign id asks here instead of writing the rule out.
 *
 * Expressions (`t.company_cuid`, an alias) come from the caller's code, never from input; values
 * (the caller's companies, ids) always become parameters.
 */

/** The caller as the policy sees it, or its scope already computed once per call. */
export type Caller = Actor | Scope;

const scopeOfCaller = (caller: Caller): Scope => ('memberships' in caller ? scopeOf(caller) : caller);

/** One parameter per (sink, caller) for the caller's companies, reused by every condition. */
const companyParams = new WeakMap<SqlParams, Map<readonly string[], string>>();
function companiesParam(scope: Scope, p: SqlParams): string {
  let bySink = companyParams.get(p);
  if (!bySink) companyParams.set(p, (bySink = new Map<readonly string[], string>()));
  let placeholder = bySink.get(scope.companies);
  if (!placeholder) bySink.set(scope.companies, (placeholder = p.add(scope.companies)));
  return `${placeholder}::varchar[]`;
}

/**
 * Visible companies: the company in `column` (e.g. `t.company_cuid`) is one of the caller's.
 * `orGlobal`: a row without company (NULL) is everybody's.
 */
export function visibleCompanySql(caller: Caller, p: SqlParams, column: string, opts: { orGlobal?: boolean } = {}): string {
  const scope = scopeOfCaller(caller);
  if (scope.superuser) return 'TRUE';
  const companies = companiesParam(scope, p);
  return opts.orGlobal ? `(${column} IS NULL OR ${column} = ANY(${companies}))` : `${column} = ANY(${companies})`;
}

/**
 * Visible systems: the `system` row under alias `s` (default `s`) is owned by one of the caller's
 * companies or shared with one of them (with or without change).
 */
export function visibleSystemSql(caller: Caller, p: SqlParams, s = 's'): string {
  const scope = scopeOfCaller(caller);
  if (scope.superuser) return 'TRUE';
  const companies = companiesParam(scope, p);
  return `(${s}.company_cuid = ANY(${companies}) OR EXISTS (
    SELECT 1 FROM system_sharing vs WHERE vs.system_cuid = ${s}.system_cuid AND vs.company_cuid = ANY(${companies})))`;
}

/**
 * A company sees a system: the company whose id is the expression `company` (a column such as
 * `c.company_cuid`, or a placeholder) owns the `system` row under alias `s` or has it shared with it.
 * For background work that acts for a company rather than a caller (alarm recipients, channels).
 */
export function companySeesSystemSql(company: string, s = 's'): string {
  return `(${s}.company_cuid = ${company} OR EXISTS (
    SELECT 1 FROM system_sharing cs WHERE cs.system_cuid = ${s}.system_cuid AND cs.company_cuid = ${company}))`;
}

/** Visible systems by id: the system whose id is `systemId` (e.g. `t.system_cuid`) is visible. */
export function visibleSystemIdSql(caller: Caller, p: SqlParams, systemId: string): string {
  const scope = scopeOfCaller(caller);
  if (scope.superuser) return 'TRUE';
  return `EXISTS (SELECT 1 FROM system vsys WHERE vsys.system_cuid = ${systemId} AND ${visibleSystemSql(scope, p, 'vsys')})`;
}

/**
 * A row carrying both its owner company and its system (the system table itself): owned by one of
 * the caller's companies, or its system shared with one of them. The shared ids are read once (an
 * init plan) rather than probed per row: both sides of the OR can then use an index (a BitmapOr for
 * a small company), and the planner does not cost a subplan per row, which made it JIT-compile
 * every count of a large table (~300 ms instead of ~30 ms).
 */
export function ownedOrSharedSql(caller: Caller, p: SqlParams, row: { company: string; system: string }): string {
  const scope = scopeOfCaller(caller);
  if (scope.superuser) return 'TRUE';
  const companies = companiesParam(scope, p);
  return `(${row.company} = ANY(${companies}) OR ${row.system} = ANY(ARRAY(
    SELECT sh.system_cuid FROM system_sharing sh WHERE sh.company_cuid = ANY(${companies}))))`;
}

/**
 * A record owned by a company and optionally tied to a system (a hosted file): owned by one of the
 * caller's companies, or its system is visible to the caller.
 */
export function ownedOrVisibleSystemSql(caller: Caller, p: SqlParams, row: { company: string; system: string }): string {
  const scope = scopeOfCaller(caller);
  if (scope.superuser) return 'TRUE';
  return `(${visibleCompanySql(scope, p, row.company)} OR (${row.system} IS NOT NULL AND ${visibleSystemIdSql(scope, p, row.system)}))`;
}

/**
 * Visible shares: the share under alias `sh` of the system under alias `s` is seen by the owner
 * company's members and by the receiving company's members.
 */
export function visibleShareSql(caller: Caller, p: SqlParams, aliases: { share?: string; system?: string } = {}): string {
  const scope = scopeOfCaller(caller);
  if (scope.superuser) return 'TRUE';
  const companies = companiesParam(scope, p);
  return `(${aliases.system ?? 's'}.company_cuid = ANY(${companies}) OR ${aliases.share ?? 'sh'}.company_cuid = ANY(${companies}))`;
}

/**
 * The shares of a system (alias `s`) as JSON `[{ company_cuid, change }]`: with `s.company_cuid`
 * (its owner), what the policy's `PolicyTarget` needs to judge a record of that system.
 */
export function systemSharesSql(s = 's'): string {
  return `COALESCE((SELECT json_agg(json_build_object('company_cuid', sh.company_cuid, 'change', sh.change))
                          FROM system_sharing sh WHERE sh.system_cuid = ${s}.system_cuid), '[]'::json)`;
}
