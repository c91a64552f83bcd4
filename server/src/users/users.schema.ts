import { ZTranslationsRecord } from '../common/translations';
import { z } from 'zod';
import { LOCALES } from '../common/locale';
import { TOAST_TIMEOUT_CHOICES_MS } from '../../../shared/common/spec-constants';
import { ZNotificationBlacklistEntry, ZPortalNotificationBlacklistEntry, ZUserMeta } from '../auth/session.schema';

export const ZCuid = z.string().trim().min(1, 'Required').max(64);

export const ZRole = z.object({
  role_cuid: z.string(),
  name: z.string(),
  level: z.number().int(),
  description: z.string().nullable(),
  /** French beside the English name and description: `{ fr: { name, description } }`. */
  translations: ZTranslationsRecord,
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

// ---- react-admin resource `user` ----------------------------------------------------------------

const ZEmail = z.string().trim().toLowerCase().min(1, 'Required').max(254).email('An email address such as name@example.com');
export const ZPassword = z.string().min(8, 'String must contain at least 8 character(s)').max(200);
const ZPhone = z.string().trim().max(50).nullable().optional();
const ZPersonName = z.string().trim().min(1, 'Required').max(200);
const ZRaId = z.union([z.string().trim().min(1).max(64), z.number().int()]).transform(String);

/** A user as the back office shows it: never the password hash. */
export const ZUserRecord = z.object({
  id: z.string(),
  user_cuid: z.string(),
  email: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  meta: z.record(z.string(), z.unknown()),
  inactive: z.boolean(),
  inactivated_at: z.date().nullable(),
  inactivated_by_user_cuid: z.string().nullable(),
  created_at: z.date(),
});
export type TUserRecord = z.infer<typeof ZUserRecord>;

export const USER_SORTS = ['id', 'user_cuid', 'email', 'name', 'phone', 'inactive', 'inactivated_at', 'created_at'] as const;

/**
 * A new user with their first membership, in a company the caller administers. Without a password
 * the user is invited: they get a mail (in `language`, else the admin's) with a link to set their own.
 */
export const ZUserCreateData = z
  .object({
    email: ZEmail,
    name: ZPersonName,
    phone: ZPhone,
    password: ZPassword.optional(),
    language: z.enum(LOCALES).optional(),
    company_cuid: ZCuid,
    role_cuid: ZCuid,
    is_company_admin: z.boolean().optional(),
  })
  .strict();
/** react-admin's create form sends an empty password field as '' or null: that means "invite". */
export const ZUserCreateParams = z.preprocess(
  (raw) => {
    const data = raw && typeof raw === 'object' ? (raw as { data?: unknown }).data : undefined;
    if (!data || typeof data !== 'object' || Array.isArray(data)) return raw;
    const { password, language, ...rest } = data as Record<string, unknown>;
    return {
      ...(raw as object),
      data: { ...rest, ...(password === '' || password === null ? {} : { password }), ...(language === '' || language === null ? {} : { language }) },
    };
  },
  z.object({ data: ZUserCreateData, meta: z.unknown().optional() }),
);

/** What became of the invitation mail of a user created without a password. */
export const ZInvitationOutcome = z.object({ sent: z.boolean(), message: z.string() });
export type TInvitationOutcome = z.infer<typeof ZInvitationOutcome>;
export type TUserCreateData = z.infer<typeof ZUserCreateData>;

/**
 * What a single edit may change; `inactive` deactivates or reactivates. `current_password` is
 * asked when a user changes their own password or email (not when an admin resets someone else's).
 */
export const ZUserUpdateData = z
  .object({ email: ZEmail, name: ZPersonName, phone: ZPhone, password: ZPassword, inactive: z.boolean(), current_password: z.string().max(200) })
  .partial()
  .strict();
export type TUserUpdateData = z.infer<typeof ZUserUpdateData>;
const USER_EDITABLE = new Set(Object.keys(ZUserUpdateData.shape));

/**
 * react-admin sends the whole record on update; read-only fields are dropped first, and an
 * empty password (a form's untouched password field) means "unchanged".
 */
export const ZUserUpdateParams = z.preprocess(
  (raw) => {
    if (!raw || typeof raw !== 'object') return raw;
    const data = (raw as { data?: unknown }).data;
    if (!data || typeof data !== 'object' || Array.isArray(data)) return raw;
    const kept = Object.fromEntries(
      Object.entries(data as Record<string, unknown>).filter(([k, v]) => USER_EDITABLE.has(k) && !(k === 'password' && (v === '' || v === null))),
    );
    return { ...raw, data: kept };
  },
  z.object({ id: ZRaId, data: ZUserUpdateData, previousData: z.unknown().optional(), meta: z.unknown().optional() }),
);

// ---- react-admin resource `role` (read-only) --------------------------------------------------

export const ZRoleRecord = ZRole.extend({ id: z.string() });
export const ROLE_SORTS = ['id', 'role_cuid', 'name', 'level'] as const;

/** A user's own toast settings (spec §3.2). */
export const ZPreferencesInput = z
  .object({
    toast_notifications_disabled: z.boolean().optional(),
    toast_notification_timeout: z
      .number()
      .int()
      .nullable()
      .refine((v) => TOAST_TIMEOUT_CHOICES_MS.includes(v), 'Choose one of the offered timeouts')
      .optional(),
    /** The user's language (screens, server messages, mails). */
    language: z.enum(LOCALES).optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'Nothing to change');
