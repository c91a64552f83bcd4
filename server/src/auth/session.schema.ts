import { z } from 'zod';
import { LOCALES } from '../common/locale';

/** Spec §3.1: the user part of the logged-in context (meta holds toast preferences and the language). */
export const ZUserMeta = z
  .object({
    preferences: z
      .object({
        toast_notifications: z
          .object({
            toast_notifications_disabled: z.boolean().optional(),
            toast_notification_timeout: z.number().int().nonnegative().nullable().optional(),
          })
          .passthrough()
          .optional(),
        /** The user's language for screens, server messages and mails (en, fr); absent: the browser's. */
        language: z.enum(LOCALES).optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();

export const ZSessionUser = z.object({
  user_cuid: z.string().min(1),
  email: z.string(),
  name: z.string(),
  inactive: z.boolean(),
  meta: ZUserMeta,
});

/** Spec §5: role_cuid, user_cuid and company_cuid non-empty; company name non-empty. */
export const ZSessionMembership = z.object({
  membership_cuid: z.string().min(1),
  role_cuid: z.string().min(1),
  user_cuid: z.string().min(1),
  company_cuid: z.string().min(1),
  is_company_admin: z.boolean().default(false),
  company: z.object({
    company_cuid: z.string().min(1),
    name: z.string().min(1),
    url: z.string().nullable(),
    logo: z.string().nullable(),
  }),
  user: z.object({
    user_cuid: z.string().min(1),
    email: z.string(),
    name: z.string(),
    phone: z.string().nullable(),
    inactive: z.boolean(),
    meta: ZUserMeta,
  }),
  role: z.object({
    role_cuid: z.string().min(1),
    name: z.string(),
    level: z.number().int().min(0).max(3),
    description: z.string().nullable(),
  }),
});

export const ZNotificationBlacklistEntry = z.object({
  blacklist_cuid: z.string(),
  user_cuid: z.string(),
  trigger_cuid: z.string(),
  /** End of the mute (ISO 8601); null or absent: until unmuted. The browser drops toasts of muted triggers until then. */
  until: z.string().nullable().optional(),
});

export const ZPortalNotificationBlacklistEntry = z.object({
  blacklist_cuid: z.string(),
  system_cuid: z.string().nullable(),
  user_cuid: z.string(),
  notification_type: z.string(),
});

export const ZSessionContext = z.object({
  user: ZSessionUser,
  memberships: z.array(ZSessionMembership),
  notificationBlacklist: z.array(ZNotificationBlacklistEntry),
  portalNotificationBlacklist: z.array(ZPortalNotificationBlacklistEntry),
  isSuperUser: z.boolean(),
});

/** What the `liuc` cookie holds: the context plus what revocation needs. */
export const ZSessionPayload = z.object({
  v: z.literal(1),
  /** Session id: logout revokes exactly this session. */
  sid: z.string().min(1),
  /** The user's session epoch at login: deactivation, membership or password changes bump it. */
  ep: z.number().int(),
  iat: z.number().int(),
  exp: z.number().int(),
  ctx: ZSessionContext,
});

export type TUserMeta = z.infer<typeof ZUserMeta>;
export type TSessionMembership = z.infer<typeof ZSessionMembership>;
export type TSessionContext = z.infer<typeof ZSessionContext>;
export type TSessionPayload = z.infer<typeof ZSessionPayload>;
