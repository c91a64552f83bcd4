import type { ChangelogKindValue } from '../../../shared/common/enums';
import { newCuid } from '../common/ids';
import { toStorableText } from '../../../shared/common/storable';
import { maskSecretText } from '../common/secret-config';
import { systemJob } from '../common/system-job';
import type { Queryable } from '../database/repository';
import { insertAutomaticChangelog } from './system-changelog.repository';

const JOB = systemJob('automatic-changelog');

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
  await insertAutomaticChangelog(
    JOB,
    q,
    entries.map((e) => ({
      log_cuid: newCuid(),
      timestamp: e.timestamp ?? null,
      // Text made storable: one entry's NUL (a controller's answer, a name stored before the edge refused it) never fails the shared insert; secrets masked.
      title: toStorableText(e.title.length > 200 ? `${e.title.slice(0, 199)}…` : e.title),
      message: e.message == null ? null : toStorableText(maskSecretText(e.message)),
      user_cuid: e.user_cuid,
      system_cuid: e.system_cuid,
      kind: e.kind,
      ref: e.ref ?? null,
    })),
  );
}
