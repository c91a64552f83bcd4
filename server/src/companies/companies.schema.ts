import { z } from 'zod';
import { ZSessionMembership } from '../auth/session.schema';
import { ZCuid } from '../users/users.schema';

/** Spec §3.1: a membership with its company, user and role. */
export const ZMembership = ZSessionMembership;
export type TMembership = z.infer<typeof ZMembership>;

export const ZManyForUserInput = z.object({ user_cuid: ZCuid });

export const ZMembershipUpdateInput = z
  .object({
    membership_cuid: ZCuid,
    role_cuid: ZCuid.optional(),
    is_company_admin: z.boolean().optional(),
  })
  .refine((v) => v.role_cuid !== undefined || v.is_company_admin !== undefined, {
    message: 'Nothing to change: give role_cuid or is_company_admin',
  });

// ---- react-admin resource `companyMembership` -------------------------------------------------

const ZRaId = z.union([z.string().trim().min(1).max(64), z.number().int()]).transform(String);

/** A membership as the back office lists it, with names for display. */
export const ZMembershipRecord = z.object({
  id: z.string(),
  membership_cuid: z.string(),
  role_cuid: z.string(),
  user_cuid: z.string(),
  company_cuid: z.string(),
  is_company_admin: z.boolean(),
  user_email: z.string(),
  user_name: z.string(),
  role_name: z.string(),
  role_level: z.number().int(),
  company_name: z.string(),
});
export type TMembershipRecord = z.infer<typeof ZMembershipRecord>;

export const MEMBERSHIP_SORTS = ['id', 'membership_cuid', 'company_name', 'user_email', 'user_name', 'role_name', 'role_level', 'is_company_admin'] as const;

export const ZMembershipCreateParams = z.object({
  data: z.object({ user_cuid: ZCuid, company_cuid: ZCuid, role_cuid: ZCuid, is_company_admin: z.boolean().optional() }).strict(),
  meta: z.unknown().optional(),
});
export type TMembershipCreateData = z.infer<typeof ZMembershipCreateParams>['data'];

export const ZMembershipChanges = z.object({ role_cuid: ZCuid, is_company_admin: z.boolean() }).partial().strict();
export type TMembershipChanges = z.infer<typeof ZMembershipChanges>;
const MEMBERSHIP_EDITABLE = new Set(Object.keys(ZMembershipChanges.shape));

/**
 * `companyMembership.update` answers two callers: the original shape `{membership_cuid, role_cuid?,
 * is_company_admin?}` (answered with the nested membership), and react-admin's `{id, data,
 * previousData}` (answered with `{data: record}`; read-only fields of the record are dropped).
 */
export const ZMembershipUpdateAny = z.preprocess(
  (raw) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
    const r = raw as Record<string, unknown>;
    if ('membership_cuid' in r && !('data' in r)) return { kind: 'legacy', input: r };
    const data = r.data;
    const kept =
      data && typeof data === 'object' && !Array.isArray(data)
        ? Object.fromEntries(Object.entries(data as Record<string, unknown>).filter(([k]) => MEMBERSHIP_EDITABLE.has(k)))
        : data;
    return { kind: 'reactAdmin', id: r.id, data: kept, previousData: r.previousData, meta: r.meta };
  },
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('legacy'), input: ZMembershipUpdateInput }),
    z.object({
      kind: z.literal('reactAdmin'),
      id: ZRaId,
      data: ZMembershipChanges,
      previousData: z.unknown().optional(),
      meta: z.unknown().optional(),
    }),
  ]),
);
