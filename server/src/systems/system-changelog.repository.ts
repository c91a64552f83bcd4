import type { Queryable } from '../database/repository';
import type { SystemJob } from '../common/system-job';

/**
 * The SQL of a system's changelog outside the generic CRUD: the fields its list reads with each
 * row (composed by the CRUD query builder, which applies the caller's scope), and the insert of
 * the entries the portal writes by itself.
 */

/** Record fields read with each changelog row (alias `t`). */
export const CHANGELOG_SELECT_EXPRESSIONS = { author_name: `(SELECT u.name FROM "user" u WHERE u.user_cuid = t.user_cuid)`, kind: `t.kind::text` };

/** One automatic entry as stored (text already cut and masked). */
export interface AutomaticChangelogRow {
  log_cuid: string;
  timestamp: Date | null;
  title: string;
  message: string | null;
  user_cuid: string | null;
  system_cuid: string;
  kind: string;
  ref: string | null;
}

/**
 * Inserts automatic entries in the caller's transaction `tx`, for the portal's own job (`_job`):
 * each entry's role is its author's role in the system's owner company (else their most powerful
 * one); a missing timestamp is now().
 */
export async function insertAutomaticChangelog(_job: SystemJob, tx: Queryable, rows: readonly AutomaticChangelogRow[]): Promise<void> {
  if (!rows.length) return;
  await tx.query(
    `INSERT INTO system_changelog (log_cuid, "timestamp", title, message, user_cuid, system_cuid, role_cuid, kind, ref)
     SELECT e.log_cuid, coalesce(e.ts, now()), e.title, e.message, e.user_cuid, e.system_cuid,
            (SELECT m.role_cuid FROM company_membership m JOIN role r ON r.role_cuid = m.role_cuid
                                JOIN system s ON s.system_cuid = e.system_cuid
              WHERE m.user_cuid = e.user_cuid ORDER BY (m.company_cuid = s.company_cuid) DESC, r.level LIMIT 1),
            e.kind::changelog_kind, e.ref
       FROM unnest($1::varchar[], $2::timestamptz[], $3::varchar[], $4::text[], $5::varchar[], $6::varchar[], $7::text[], $8::varchar[])
            AS e(log_cuid, ts, title, message, user_cuid, system_cuid, kind, ref)`,
    [
      rows.map((r) => r.log_cuid),
      rows.map((r) => r.timestamp),
      rows.map((r) => r.title),
      rows.map((r) => r.message),
      rows.map((r) => r.user_cuid),
      rows.map((r) => r.system_cuid),
      rows.map((r) => r.kind),
      rows.map((r) => r.ref),
    ],
  );
}
