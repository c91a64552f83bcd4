import { z } from 'zod';
import { ZNotificationBlacklistEntry, ZPortalNotificationBlacklistEntry, ZUserMeta } from '../auth/session.schema';

export const ZCuid = z.string().trim().min(1, 'Required').max(64);

export const ZRole = z.object({
  role_cuid: z.string(),
  name: z.string(),
  level: z.number().int(),
  description: z.string().nullable(),
});
export type TRole = z.infer<typeof ZRole>;

export const ZUserFindOneInput = z.object({ email: z.string().trim().min(1, 'Required').max(254).email() });

/** Spec §7: user findOne by email. */
export const ZUserFindOneOutput = z.object({
  user_cuid: z.string(),
  email: z.string(),
  name: z.string(),
  inactive: z.boolean(),
  meta: ZUserMeta,
  notification_blacklist: z.array(ZNotificationBlacklistEntry),
  portal_notification_blacklist: z.array(ZPortalNotificationBlacklistEntry),
});
export type TUserFindOneOutput = z.infer<typeof ZUserFindOneOutput>;

export const ZUserIdInput = z.object({ user_cuid: ZCuid });

export const ZUserStatusOutput = z.object({
  user_cuid: z.string(),
  inactive: z.boolean(),
  inactivated_at: z.date().nullable(),
  inactivated_by_user_cuid: z.string().nullable(),
});
export type TUserStatusOutput = z.infer<typeof ZUserStatusOutput>;
