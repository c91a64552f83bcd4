import type { ChangelogKindValue } from '../common/enums';
import { newCuid } from '../common/ids';
import { toStorableText } from '../common/storable';
import { maskSecretText } from '../common/secret-config';

interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** One entry the portal writes by itself (issue: control, "Audit"): who, what, result. */
export interface AutomaticChangelogEntry {
  system_cuid: string;
  kind: Exclude<ChangelogKindValue, 'MANUAL'>;
  /** One line: what happened ("Restart of ctrl-7: SUCCESS"). At most 200 characters (cut). */
  title: string;
  /** The details (payload summary, the controller's message …). */
  message?: string | null;
  /** Who did it; null for the portal itself (e.g. a command that expired). */
  user_cuid: string | null;
  /** What it is about: a command_id, a mute_cuid, a controller_id or entity_cuid. */
  ref?: string | null;
  timestamp?: Date;
}

/**
 * Writes automatic SystemChangelog entries (kind COMMAND, CONFIGURATION or MUTE) in the caller's
 * transaction. Unlike a manual entry they notify nobody and cannot be edited or deleted. The role
 * is the author's role in the system's owner company (else their most powerful one). Every reader
 * of the changelog may read them, so secret configuration values quoted in a message are masked
 * here, whoever wrote it (docs/security.md "Secrets stay secret").
 */
export async function writeAutomaticChangelog(q: Queryable, entries: readonly AutomaticChangelogEntry[]): Promise<void> {
  if (!entries.length) return;
  await q.query(
    `INSERT INTO system_changelog (log_cuid, "timestamp", title, message, user_cuid, system_cuid, role_cuid, kind, ref)
     SELECT e.log_cuid, coalesce(e.ts, now()), e.title, e.message, e.user_cuid, e.system_cuid,
            (SELECT m.role_cuid FROM company_membership m JOIN role r ON r.role_cuid = m.role_cuid
                                JOIN system s ON s.system_cuid = e.system_cuid
              WHERE m.user_cuid = e.user_cuid ORDER BY (m.company_cuid = s.company_cuid) DESC, r.level LIMIT 1),
            e.kind::changelog_kind, e.ref
       FROM unnest($1::varchar[], $2::timestamptz[], $3::varchar[], $4::text[], $5::varchar[], $6::varchar[], $7::text[], $8::varchar[])
            AS e(log_cuid, ts, title, message, user_cuid, system_cuid, kind, ref)`,
    [
      entries.map(() => newCuid()),
      entries.map((e) => e.timestamp ?? null),
      // Text made storable: one entry's NUL (a controller's answer, a name stored before the edge refused it) never fails the shared insert; secrets masked.
      entries.map((e) => toStorableText(e.title.length > 200 ? `${e.title.slice(0, 199)}…` : e.title)),
      entries.map((e) => (e.message == null ? null : toStorableText(maskSecretText(e.message)))),
      entries.map((e) => e.user_cuid),
      entries.map((e) => e.system_cuid),
      entries.map((e) => e.kind),
      entries.map((e) => e.ref ?? null),
    ],
  );
}
