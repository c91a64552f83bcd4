import { z } from 'zod';
import { NOTIFICATION_CHANNEL_SOURCES, NOTIFICATION_CHANNEL_STATUSES, NOTIFICATION_SEVERITIES } from '../../../../shared/common/enums';
import { ZName, ZRefCuid } from '../../../../shared/common/zod-fields';

export const ZChannelRef = z.object({ channel_cuid: ZRefCuid }).strict();
export const ZEmailCreate = z.object({ company_cuid: ZRefCuid, email: z.string().trim().toLowerCase().max(254).email('Not an e-mail address') }).strict();
export const ZTelegramCreate = z.object({ company_cuid: ZRefCuid }).strict();
export const ZDiscordCreate = z.object({ company_cuid: ZRefCuid, name: ZName, webhook: z.string().trim().min(1, 'Required').max(2048) }).strict();
export const ZLinkList = z.union([z.object({ channel_cuid: ZRefCuid }).strict(), z.object({ trigger_cuid: ZRefCuid }).strict()]);
export const ZLinkSet = z.object({ channel_cuid: ZRefCuid, trigger_cuid: ZRefCuid, enabled: z.boolean() }).strict();

/** A channel as answered: never the webhook's path, the bot token or a verification secret. */
export const ZChannelDetails = z.object({
  channel: z.object({
    channel_cuid: z.string(),
    source: z.enum(NOTIFICATION_CHANNEL_SOURCES),
    status: z.enum(NOTIFICATION_CHANNEL_STATUSES),
    company_cuid: z.string(),
    company_name: z.string(),
  }),
  email: z.object({ email: z.string(), verified_at: z.date().nullable() }).optional(),
  telegram: z
    .object({
      configured: z.boolean(),
      group_chat_name: z.string().nullable(),
      linked_at: z.date().nullable(),
      /** The link code, only while the channel is not linked. */
      code: z.string().nullable(),
      command: z.string().nullable(),
      deepLink: z.string().nullable(),
    })
    .optional(),
  discord: z.object({ name: z.string(), host: z.string(), created_at: z.date() }).optional(),
});
export type TChannelDetails = z.infer<typeof ZChannelDetails>;

export const ZCreateAnswer = ZChannelDetails.extend({ message: z.string() });
export const ZTelegramCreateAnswer = ZChannelDetails.extend({
  link: z.object({ code: z.string(), command: z.string(), deepLink: z.string().nullable() }),
});

export const ZSendTestAnswer = z.object({ ok: z.boolean(), message: z.string() });

export const ZChannelLink = z.object({
  channel_cuid: z.string(),
  source: z.enum(NOTIFICATION_CHANNEL_SOURCES),
  status: z.enum(NOTIFICATION_CHANNEL_STATUSES),
  /** The channel's address as shown (e-mail, chat name, Discord name). */
  label: z.string().nullable(),
  trigger_cuid: z.string(),
  trigger_name: z.string(),
  severity_level: z.enum(NOTIFICATION_SEVERITIES),
  is_active: z.boolean(),
  system_cuid: z.string(),
  system_name: z.string(),
  enabled: z.boolean(),
});
export const ZChannelLinks = z.object({ items: z.array(ZChannelLink), truncated: z.boolean() });

export const ZSources = z.object({
  email: z.object({ configured: z.literal(true), files: z.boolean() }),
  telegram: z.object({ configured: z.boolean(), bot_username: z.string().nullable() }),
  discord: z.object({ configured: z.boolean(), hosts: z.array(z.string()) }),
});
