import { Inject, Injectable } from '@nestjs/common';
import { DATA_SOURCE } from '../database/database.module';
import type { DataSource, EntityManager } from 'typeorm';

/** One unit to spend: under `budget` (its name), for `key` (who or what pays), at most `limit` a window. */
export interface Spend {
  budget: string;
  key: string;
  limit: number;
}

export type SpendVerdict = { ok: true } | { ok: false; budget: string; retryAfterSeconds: number };

interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * The SQL of the shared budgets (table budget_use, migration 1764620000000): every instance
 * counts the same uses. A spend takes a transaction-scoped advisory lock per (budget, key), in one
 * order (sorted), then counts the uses of each key inside the window and, when every one has room,
 * records one use per key; a refused spend records nothing.
 */
@Injectable()
export class BudgetRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async spend(spends: readonly Spend[], windowMs: number, now = Date.now()): Promise<SpendVerdict> {
    if (spends.length === 0) return { ok: true };
    return this.ds.transaction((tx: EntityManager) => spendIn(tx, spends, windowMs, now));
  }

  /**
   * Rows of a capped count (triggers, channels, data processors) of every company of budget
   * account `root`, under a lock on (cap, root), inside the caller's transaction. A trigger or
   * processor counts against its charged company, or its system's owner when it has none.
   */
  async lockAndCount(tx: Queryable, cap: CompanyCapName, root: string): Promise<number> {
    await tx.query(`SELECT pg_advisory_xact_lock(7302, hashtext($1))`, [`${cap}:${root}`]);
    const [row] = (await tx.query(COUNT_SQL[cap], [root])) as { n: number }[];
    return row?.n ?? 0;
  }

  /** The budget account (root company) of a company: its row in company_budget_root, else itself. */
  async rootOf(q: Queryable, company_cuid: string): Promise<string> {
    const [row] = (await q.query(`SELECT ${rootOfSql('$1::varchar')} AS root`, [company_cuid])) as { root: string }[];
    return row?.root ?? company_cuid;
  }

  /** The distinct budget accounts of some companies, sorted. */
  async rootsOf(company_cuids: readonly string[]): Promise<string[]> {
    if (!company_cuids.length) return [];
    const rows = await this.ds.query<{ root: string }[]>(`SELECT DISTINCT ${rootOfSql('c')} AS root FROM unnest($1::varchar[]) AS c ORDER BY 1`, [
      company_cuids,
    ]);
    return rows.map((r) => r.root);
  }

  /**
   * A new company made by a company admin who is no superuser counts with the budget account of
   * the company the creator administers from: of their admin memberships (the new company's left
   * out), the oldest company (created_at), ties by company_cuid. Nothing when there is none.
   */
  async assignRoot(tx: Queryable, creator_cuid: string, company_cuid: string): Promise<void> {
    await tx.query(
      `INSERT INTO company_budget_root (company_cuid, root_company_cuid)
       SELECT $2::varchar, ${rootOfSql('c.company_cuid')} FROM company_membership m JOIN company c ON c.company_cuid = m.company_cuid
        WHERE m.user_cuid = $1 AND m.is_company_admin AND m.company_cuid <> $2::varchar
        ORDER BY c.created_at, c.company_cuid LIMIT 1
       ON CONFLICT (company_cuid) DO NOTHING`,
      [creator_cuid, company_cuid],
    );
  }

  /** The owner of a system and the companies it is shared with (who acts from where), or undefined. */
  async systemCompanies(
    tx: Queryable,
    system_cuid: string,
  ): Promise<{ company_cuid: string; shares: { company_cuid: string; change: boolean }[] } | undefined> {
    const [row] = (await tx.query(
      `SELECT s.company_cuid, COALESCE((SELECT json_agg(json_build_object('company_cuid', sh.company_cuid, 'change', sh.change))
                                           FROM system_sharing sh WHERE sh.system_cuid = s.system_cuid), '[]'::json) AS shares
         FROM system s WHERE s.system_cuid = $1`,
      [system_cuid],
    )) as { company_cuid: string; shares: { company_cuid: string; change: boolean }[] | string }[];
    if (!row) return undefined;
    return {
      company_cuid: row.company_cuid,
      shares: typeof row.shares === 'string' ? (JSON.parse(row.shares) as { company_cuid: string; change: boolean }[]) : row.shares,
    };
  }

  /**
   * The triggers the autocreate templates of device type `entitytype_id` would make for device
   * `entity_cuid` (alerts/engine/alert-write-hooks.service.ts: one per template that has none for
   * it yet).
   */
  async templateTriggersFor(tx: Queryable, entitytype_id: string, entity_cuid: string): Promise<number> {
    const [row] = (await tx.query(
      `SELECT count(*)::int AS n FROM notification_template_assignment a
        WHERE a.autocreate_triggers AND a.entitytype_id = $1
          AND NOT EXISTS (SELECT 1 FROM notification_trigger t WHERE t.assignment_cuid = a.assignment_cuid AND t.args->>'entity_cuid' = $2)`,
      [entitytype_id, entity_cuid],
    )) as { n: number }[];
    return row?.n ?? 0;
  }

  /** Charges an existing trigger or data processor to another company (a move to another system). */
  async setCharged(tx: Queryable, cap: 'triggers' | 'processors', id: string, company_cuid: string): Promise<void> {
    if (cap === 'triggers') await tx.query(`UPDATE notification_trigger SET charged_company_cuid = $2 WHERE trigger_cuid = $1`, [id, company_cuid]);
    else await tx.query(`UPDATE entity SET charged_company_cuid = $2 WHERE entity_cuid = $1`, [id, company_cuid]);
  }

  /**
   * Bytes of the hosted files a company holds (hosted_file.company_cuid: files it owns and files its
   * users uploaded into a system shared with it), under a lock on (files, company) held until the
   * caller's transaction ends, so concurrent uploads count one after the other.
   */
  async lockAndSumFileBytes(tx: Queryable, company_cuid: string): Promise<number> {
    await tx.query(`SELECT pg_advisory_xact_lock(7302, hashtext($1))`, [`files:${company_cuid}`]);
    const [row] = (await tx.query(`SELECT COALESCE(sum(size), 0)::bigint AS n FROM hosted_file WHERE company_cuid = $1`, [company_cuid])) as {
      n: string | number;
    }[];
    return Number(row?.n ?? 0);
  }

  /** The bytes of a company's hosted files without a lock (an early answer before storing anything). */
  async sumFileBytes(company_cuid: string): Promise<number> {
    const [row] = await this.ds.query<{ n: string | number }[]>(`SELECT COALESCE(sum(size), 0)::bigint AS n FROM hosted_file WHERE company_cuid = $1`, [
      company_cuid,
    ]);
    return Number(row?.n ?? 0);
  }

  /** The companies a user belongs to, sorted. */
  async companiesOfUser(user_cuid: string): Promise<string[]> {
    const rows = await this.ds.query<{ company_cuid: string }[]>(`SELECT company_cuid FROM company_membership WHERE user_cuid = $1 ORDER BY company_cuid`, [
      user_cuid,
    ]);
    return rows.map((r) => r.company_cuid);
  }

  async sweep(before: Date): Promise<void> {
    await this.ds.query(`DELETE FROM budget_use WHERE at < $1`, [before]);
  }
}

/** The sweep of uses older than the longest window (OldRowsSweeper, `$1` = the window's start). */
export const BUDGET_SWEEP_SQL = `DELETE FROM budget_use WHERE at < $1`;

export type CompanyCapName = 'triggers' | 'channels' | 'processors' | 'schedules';

/**
 * The budget account of the company in SQL expression `company` (a column or parameter): its
 * company_budget_root row's root, else itself. For every per-company budget's SQL (here and in
 * export-jobs.repository.ts).
 */
export const rootOfSql = (company: string): string =>
  `COALESCE((SELECT br.root_company_cuid FROM company_budget_root br WHERE br.company_cuid = ${company}), ${company})`;

/** The companies of budget account `$1`: the root and every company that counts with it. */
export const ROOT_COMPANIES_SQL = `(SELECT $1::varchar UNION ALL SELECT br.company_cuid FROM company_budget_root br WHERE br.root_company_cuid = $1)`;

const COUNT_SQL: Record<CompanyCapName, string> = {
  triggers: `SELECT count(*)::int AS n FROM notification_trigger t JOIN system s ON s.system_cuid = t.system_cuid
              WHERE t.charged_company_cuid IN ${ROOT_COMPANIES_SQL} OR (t.charged_company_cuid IS NULL AND s.company_cuid IN ${ROOT_COMPANIES_SQL})`,
  channels: `SELECT count(*)::int AS n FROM notification_channel WHERE company_cuid IN ${ROOT_COMPANIES_SQL}`,
  processors: `SELECT count(*)::int AS n FROM entity e JOIN system s ON s.system_cuid = e.system_cuid
                 JOIN entity_type et ON et.entitytype_id = e.entitytype_id
                WHERE et.entity_type <> 'Device' AND (e.charged_company_cuid IN ${ROOT_COMPANIES_SQL} OR (e.charged_company_cuid IS NULL AND s.company_cuid IN ${ROOT_COMPANIES_SQL}))`,
  // Scheduled export templates charged to the budget account (no charge recorded → the system's owner).
  schedules: `SELECT count(*)::int AS n FROM system_data_export_template t JOIN system s ON s.system_cuid = t.system_cuid
                WHERE COALESCE(t.charged_company_cuid, s.company_cuid) IN ${ROOT_COMPANIES_SQL} AND jsonb_typeof(t.config->'schedule') = 'object'`,
};

/**
 * One spend inside the caller's transaction (`tx.query` answers rows, as TypeORM's does): the
 * uses it records commit or roll back with the caller's work, so a refused spend stores nothing
 * of the caller's and a failed caller spends nothing.
 */
export async function spendIn(tx: Queryable, spends: readonly Spend[], windowMs: number, now = Date.now()): Promise<SpendVerdict> {
  const all = [...new Map(spends.map((s) => [`${s.budget}\u0000${s.key}`, s])).values()].sort((a, b) =>
    a.budget === b.budget ? (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : a.budget < b.budget ? -1 : 1,
  );
  if (all.length === 0) return { ok: true };
  for (const s of all) await tx.query(`SELECT pg_advisory_xact_lock(7301, hashtext($1))`, [`${s.budget}:${s.key}`]);
  const rows = (await tx.query(
    `SELECT w.budget, w.key, count(u.at)::int AS n, min(u.at) AS oldest
       FROM unnest($1::text[], $2::text[]) AS w(budget, key)
       LEFT JOIN budget_use u ON u.budget = w.budget AND u.key = w.key AND u.at > $3
      GROUP BY w.budget, w.key`,
    [all.map((s) => s.budget), all.map((s) => s.key), new Date(now - windowMs)],
  )) as { budget: string; key: string; n: number; oldest: Date | null }[];
  for (const s of all) {
    const r = rows.find((x) => x.budget === s.budget && x.key === s.key);
    if (r && r.n >= s.limit) {
      const oldest = r.oldest ? new Date(r.oldest).getTime() : now;
      return { ok: false, budget: s.budget, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) } as const;
    }
  }
  await tx.query(`INSERT INTO budget_use (budget, key, at) SELECT b, k, $3 FROM unnest($1::text[], $2::text[]) AS w(b, k)`, [
    all.map((s) => s.budget),
    all.map((s) => s.key),
    new Date(now),
  ]);
  return { ok: true } as const;
}
