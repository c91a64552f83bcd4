import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { NOTIFICATION_CHANNEL_SOURCES, NOTIFICATION_CHANNEL_STATUSES, NOTIFICATION_SEVERITIES, SLUG_PATTERN } from '../../../shared/common/enums';
import { ZJsonObject, ZName, ZRefCuid } from '../../../shared/common/zod-fields';
import type { ResourceDefinition } from '../crud/resource';
import { resourceAccess } from '../../../shared/access/resources';
import { budgetsOf } from '../budgets/budgets.service';
import { AlertsResourcesRepository } from './alerts-resources.repository';

const eventRecords = new AlertsResourcesRepository();

type Def = ResourceDefinition<z.ZodObject, z.ZodObject, z.ZodObject>;
/** A JSON object as read back (answers are not re-checked against the input bounds). */
const ZStoredJson = z.record(z.string(), z.unknown());
const ZMessage = z.string().trim().min(1, 'Required').max(2000);

/** Event templates (spec §6: templates view 0; "Admin actions need 0" to change them). */
export const templateAssignmentResource: Def = {
  name: 'notificationTemplateAssignment',
  table: 'notification_template_assignment',
  key: 'assignment_cuid',
  generatedKey: true,
  record: z.object({
    assignment_cuid: z.string(),
    name: z.string(),
    severity_level: z.enum(NOTIFICATION_SEVERITIES),
    message: z.string(),
    release_message: z.string().nullable(),
    description: z.string().nullable(),
    args: ZStoredJson,
    autocreate_triggers: z.boolean(),
    entitytype_id: z.string(),
  }),
  create: z.object({
    name: ZName,
    severity_level: z.enum(NOTIFICATION_SEVERITIES).default('INFO'),
    message: ZMessage,
    release_message: ZMessage.nullable().optional(),
    description: z.string().max(10_000).nullable().optional(),
    args: ZJsonObject.default({}),
    autocreate_triggers: z.boolean().default(false),
    entitytype_id: z.string().regex(SLUG_PATTERN),
  }),
  update: z
    .object({
      name: ZName,
      severity_level: z.enum(NOTIFICATION_SEVERITIES),
      message: ZMessage,
      release_message: ZMessage.nullable(),
      description: z.string().max(10_000).nullable(),
      args: ZJsonObject,
      autocreate_triggers: z.boolean(),
    })
    .partial(),
  ...resourceAccess('notificationTemplateAssignment'),
  scope: { kind: 'global' },
  search: ['name', 'message', 'description'],
  filters: ['entitytype_id', 'severity_level', 'autocreate_triggers'],
  sorts: ['name', 'severity_level', 'entitytype_id'],
  defaultSort: { field: 'name', order: 'ASC' },
  selectExpressions: { severity_level: 't.severity_level::text' },
};

/** Triggers of a system (spec §6: triggers view 2, change 1); the engine that runs them comes later. */
export const triggerResource: Def = {
  name: 'notificationTrigger',
  table: 'notification_trigger',
  key: 'trigger_cuid',
  generatedKey: true,
  record: z.object({
    trigger_cuid: z.string(),
    created_at: z.date(),
    is_active: z.boolean(),
    severity_level: z.enum(NOTIFICATION_SEVERITIES),
    args: ZStoredJson,
    name: z.string(),
    message: z.string(),
    release_message: z.string().nullable(),
    system_cuid: z.string(),
    assignment_cuid: z.string().nullable(),
  }),
  create: z.object({
    is_active: z.boolean().default(true),
    severity_level: z.enum(NOTIFICATION_SEVERITIES).default('INFO'),
    args: ZJsonObject.default({}),
    name: ZName,
    message: ZMessage,
    release_message: ZMessage.nullable().optional(),
    system_cuid: ZRefCuid,
    assignment_cuid: ZRefCuid.nullable().optional(),
  }),
  update: z
    .object({
      is_active: z.boolean(),
      severity_level: z.enum(NOTIFICATION_SEVERITIES),
      args: ZJsonObject,
      name: ZName,
      message: ZMessage,
      release_message: ZMessage.nullable(),
    })
    .partial(),
  ...resourceAccess('notificationTrigger'),
  scope: { kind: 'system', column: 'system_cuid' },
  // TRIGGERS_PER_COMPANY: every new trigger (create, CSV import) is charged to the company its creator acts from, and needs room in its budget account.
  beforeWrite: async (tx, actor, row, current) => {
    await budgetsOf(tx).assertRoomForRow(tx, 'triggers', actor, row, current);
  },
  search: ['name', 'message'],
  filters: ['system_cuid', 'assignment_cuid', 'is_active', 'severity_level'],
  sorts: ['name', 'created_at', 'severity_level', 'is_active'],
  defaultSort: { field: 'name', order: 'ASC' },
  selectExpressions: { severity_level: 't.severity_level::text' },
};

/** Notification channels of a company (spec §6: open to all members); delivery comes later. */
export const channelResource: Def = {
  name: 'notificationChannel',
  table: 'notification_channel',
  key: 'channel_cuid',
  generatedKey: true,
  record: z.object({
    channel_cuid: z.string(),
    source: z.enum(NOTIFICATION_CHANNEL_SOURCES),
    status: z.enum(NOTIFICATION_CHANNEL_STATUSES),
    company_cuid: z.string(),
  }),
  create: z.object({ source: z.enum(NOTIFICATION_CHANNEL_SOURCES), company_cuid: ZRefCuid }),
  update: z.object({ status: z.enum(['ACTIVE', 'DISABLED']) }).partial(),
  ...resourceAccess('notificationChannel'),
  // A channel is made with its details (an address, a chat, a webhook) by emailChannel.create,
  // telegramChannel.create or discordChannel.create (alerts/channels); a bare row would be a channel
  // nothing can deliver to. Asked after the permission and scope checks: a foreign company stays NOT_FOUND.
  // Re-activating (ACTIVE) needs what made it active: a verified address, a linked chat.
  beforeWrite: async (tx, actor, row, current) => {
    if (!current)
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'Create a channel with emailChannel.create, telegramChannel.create or discordChannel.create' });
    if (row.status !== 'ACTIVE' || current.status === 'ACTIVE') return;
    if (!(await eventRecords.channelReady(actor, tx, String(current.channel_cuid))))
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'This channel is not verified or linked yet: it cannot be activated' });
  },
  scope: { kind: 'company', column: 'company_cuid' },
  search: [],
  filters: ['company_cuid', 'source', 'status'],
  sorts: ['source', 'status'],
  defaultSort: { field: 'source', order: 'ASC' },
  selectExpressions: { source: 't.source::text', status: 't.status::text' },
};

/** The event records' resources by router name (api/resource-routers.ts mounts them all). */
export const EVENT_RESOURCES = {
  notificationTemplateAssignment: templateAssignmentResource,
  notificationTrigger: triggerResource,
  notificationChannel: channelResource,
} as const;
