import { z } from 'zod';
import { TRPCError } from '@trpc/server';
import type { ResourceDefinition } from '../crud/resource';
import { resourceAccess } from '../../../shared/access/resources';
import { CHANGELOG_KINDS } from '../../../shared/common/enums';
import { CHANGELOG_SELECT_EXPRESSIONS } from './system-changelog.repository';

/** The answer to editing or deleting an entry the portal wrote (kind other than MANUAL). */
export const AUTOMATIC_ENTRY_REFUSAL = 'Entries written by the portal cannot be changed';

const refuseAutomatic = (row: Record<string, unknown> | undefined): void => {
  if (row && row.kind !== undefined && row.kind !== 'MANUAL') throw new TRPCError({ code: 'FORBIDDEN', message: AUTOMATIC_ENTRY_REFUSAL });
};

export const ZChangelogRecord = z.object({
  log_cuid: z.string(),
  timestamp: z.date(),
  title: z.string(),
  message: z.string().nullable(),
  user_cuid: z.string().nullable(),
  /** The author's name (null once the user is deleted). */
  author_name: z.string().nullable(),
  system_cuid: z.string(),
  role_cuid: z.string().nullable(),
  /** MANUAL (written by a person) or what the portal wrote by itself: COMMAND, CONFIGURATION, MUTE. */
  kind: z.enum(CHANGELOG_KINDS),
  /** What an automatic entry is about (a command_id, a mute_cuid, a controller_id or entity_cuid). */
  ref: z.string().nullable(),
});

/**
 * A system's changelog for the back office: read with the system (owner company or shares),
 * newest first; edited and deleted with changelog.edit / changelog.delete (spec §6: level 2): by
 * level 2 in the owner company, or by the author while they see the system through the owner
 * company or a share with change; never through a read-only share.
 * Entries are written by `systemChangelog.create` (custom: it also notifies the system's people).
 * Automatic entries (kind COMMAND, CONFIGURATION, MUTE; systems/automatic-changelog.ts) are
 * read-only: editing or deleting one answers FORBIDDEN. Filter `kind` takes one kind or a list
 * (`['COMMAND', 'CONFIGURATION', 'MUTE']`: every automatic entry).
 */
export const systemChangelogResource: ResourceDefinition<typeof ZChangelogRecord, z.ZodObject, z.ZodObject> = {
  name: 'systemChangelog',
  table: 'system_changelog',
  key: 'log_cuid',
  generatedKey: true,
  record: ZChangelogRecord,
  // Not used: `create` is the custom procedure.
  create: z.object({}),
  update: z
    .object({
      title: z.string().trim().min(1, 'Required').max(200),
      message: z.string().trim().max(10_000).nullable(),
    })
    .partial(),
  ...resourceAccess('systemChangelog'),
  scope: { kind: 'system', column: 'system_cuid' },
  search: ['title', 'message'],
  filters: ['system_cuid', 'user_cuid', 'role_cuid', 'kind'],
  sorts: ['timestamp', 'title'],
  defaultSort: { field: 'timestamp', order: 'DESC' },
  selectExpressions: CHANGELOG_SELECT_EXPRESSIONS,
  // Only people's entries change; the portal's own are the audit trail.
  beforeWrite: async (_tx, _actor, _row, current) => refuseAutomatic(current),
  beforeDelete: async (_tx, _actor, row) => refuseAutomatic(row),
  // Automatic entries quote configuration: ones written before secrets were masked at write time
  // (systems/automatic-changelog.ts) are masked when read by whoever may not configure the system's controllers.
  secrets: { columns: [], perm: 'controllers.configure', textColumns: ['message'], textRows: (row) => row.kind !== 'MANUAL' },
  // The author counts for changelog.edit / changelog.delete (policy `mayChangeChangelogEntry`).
  targetExtra: async (_tx, row) => ({ user_cuid: (row.user_cuid as string | null) ?? undefined }),
};
