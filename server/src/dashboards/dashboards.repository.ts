import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Scope } from '../access/scope';
import { DATA_SOURCE } from '../database/database.module';
import type { Queryable } from '../database/repository';
import type { SystemJob } from '../common/system-job';
import { SqlParams } from '../database/sql-params';
import { type Caller, companySeesSystemSql, visibleSystemSql } from '../tenancy/visibility';
import type { ResourceDefinition } from '../crud/resource';
import { scopeSql } from '../crud/sql-builder';

/** A dashboard the caller sees, with its owner's and role's names (the home page, a system's page). */
export interface MineDashboardRow {
  dashboard_cuid: string;
  name: string;
  entityowner_cuid: string;
  owner_kind: 'company' | 'system';
  owner_name: string;
  role_cuid: string | null;
  role_name: string | null;
  role_level: number | null;
}

/**
 * The role condition of a dashboard (issue 13 §2), on alias `t`: a dashboard without a role is for
 * everyone who sees its owner; one made for a role of level L is for the members whose level in a
 * company that sees the owner (the company itself; for a system, its owner company or a company it
 * is shared with) is L or more powerful (<= L). A superuser sees every dashboard. The generic CRUD
 * composes it (dashboard.resource.ts `callerWhere`).
 */
export function dashboardRoleSql(scope: Scope, p: SqlParams): string {
  if (scope.superuser) return 'TRUE';
  const entries = Object.entries(scope.levels ?? {});
  const companies = p.add(entries.map(([c]) => c));
  const levels = p.add(entries.map(([, l]) => l));
  return `(t.role_cuid IS NULL OR EXISTS (
    SELECT 1 FROM role dr
      JOIN unnest(${companies}::varchar[], ${levels}::int[]) AS dm(company_cuid, level) ON dm.level <= dr.level
     WHERE dr.role_cuid = t.role_cuid
       AND (dm.company_cuid = t.entityowner_cuid
            OR EXISTS (SELECT 1 FROM system ds WHERE ds.system_cuid = t.entityowner_cuid AND ${companySeesSystemSql('dm.company_cuid', 'ds')}))))`;
}

/**
 * Who sees a dashboard: an owner (company or system) the caller sees, and the role condition.
 * dashboard.resource.ts declares the same two for the generic CRUD; both build their SQL from here
 * through the CRUD's one scope builder, so the list and `mine` can never disagree.
 */
export const DASHBOARD_VISIBILITY = {
  scope: { kind: 'companyOrSystem', column: 'entityowner_cuid' },
  callerWhere: dashboardRoleSql,
} as const satisfies Pick<ResourceDefinition, 'scope' | 'callerWhere'>;

/**
 * The SQL of dashboards beside the generic CRUD: `mine`, and the checks before a dashboard is
 * written. The caller comes first; methods that say "unscoped" check existence on purpose (the
 * CRUD has already scoped the row being written).
 */
@Injectable()
export class DashboardsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /** The dashboards the caller sees (of one system, if given), at most `limit`, companies' first, by owner, role level and name. */
  async mine(scope: Scope, limit: number, system_cuid?: string): Promise<MineDashboardRow[]> {
    const p = new SqlParams();
    const where = [scopeSql(DASHBOARD_VISIBILITY, scope, p)];
    if (system_cuid) where.push(`t.entityowner_cuid = ${p.add(system_cuid)}`);
    const rows = await this.ds.query<MineDashboardRow[]>(
      `SELECT t.dashboard_cuid, t.name, t.entityowner_cuid,
              CASE WHEN c.company_cuid IS NOT NULL THEN 'company' ELSE 'system' END AS owner_kind,
              COALESCE(c.name, s.name, '') AS owner_name,
              t.role_cuid, r.name AS role_name, r.level::int AS role_level
         FROM dashboard t
         LEFT JOIN company c ON c.company_cuid = t.entityowner_cuid
         LEFT JOIN system s ON s.system_cuid = t.entityowner_cuid
         LEFT JOIN role r ON r.role_cuid = t.role_cuid
        WHERE ${where.join(' AND ')}
        ORDER BY owner_kind, owner_name, r.level DESC NULLS FIRST, t.name, t.dashboard_cuid
        LIMIT ${Math.trunc(limit)}`,
      p.values,
    );
    return rows.map((r) => ({ ...r, role_level: r.role_level === null ? null : Number(r.role_level) }));
  }

  /** Unscoped: a company or a system with this id exists. */
  async ownerExists(_caller: Caller | SystemJob, entityowner_cuid: unknown, tx: Queryable = this.ds): Promise<boolean> {
    const [owner] = await tx.query(`SELECT 1 FROM company WHERE company_cuid = $1 UNION ALL SELECT 1 FROM system WHERE system_cuid = $1`, [entityowner_cuid]);
    return !!owner;
  }

  /** Unscoped: the role exists. */
  async roleExists(_caller: Caller | SystemJob, role_cuid: unknown, tx: Queryable = this.ds): Promise<boolean> {
    const [role] = await tx.query(`SELECT 1 FROM role WHERE role_cuid = $1`, [role_cuid]);
    return !!role;
  }

  /** The caller sees the system, and (if given) the device is one of that very system. */
  async seesSystem(caller: Caller, tx: Queryable, system_cuid: string, entity_cuid?: string): Promise<boolean> {
    const p = new SqlParams();
    const device = entity_cuid ? `AND EXISTS (SELECT 1 FROM entity e WHERE e.entity_cuid = ${p.add(entity_cuid)} AND e.system_cuid = s.system_cuid)` : '';
    const [seen] = await tx.query(
      `SELECT 1 FROM system s WHERE s.system_cuid = ${p.add(system_cuid)} AND ${visibleSystemSql(caller, p, 's')} ${device}`,
      p.values,
    );
    return !!seen;
  }
}
