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
