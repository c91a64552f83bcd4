import { z } from 'zod';
import type { ResourceDefinition } from '../crud/resource';
import { resourceAccess } from '../access/resources';

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
});

/**
 * A system's changelog for the back office: read with the system (owner company or shares),
 * newest first; edited and deleted with changelog.edit / changelog.delete (spec §6: level 2): by
 * level 2 in the owner company, or by the author while they see the system through the owner
 * company or a share with change; never through a read-only share.
 * Entries are written by `systemChangelog.create` (custom: it also notifies the system's people).
 */
export const systemChangelogResource: ResourceDefinition<typeof ZChangelogRecord, z.ZodObject, z.ZodObject> = {
  name: 'systemChangelog',
  label: 'Changelog entry',
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
  filters: ['system_cuid', 'user_cuid', 'role_cuid'],
  sorts: ['timestamp', 'title'],
  defaultSort: { field: 'timestamp', order: 'DESC' },
  selectExpressions: { author_name: `(SELECT u.name FROM "user" u WHERE u.user_cuid = t.user_cuid)` },
  // The author counts for changelog.edit / changelog.delete (policy `mayChangeChangelogEntry`).
  targetExtra: async (_tx, row) => ({ user_cuid: (row.user_cuid as string | null) ?? undefined }),
};
