import { z } from 'zod';
import { ZCuid, ZInvitationOutcome, ZPassword } from '../users/users.schema';

/** POST /api/auth/forgot */
export const ZForgotBody = z.object({ email: z.string().trim().toLowerCase().min(1).max(254).email() }).strip();

/** POST /api/auth/reset: the token of the mailed link and the new password (the repo's password rule). */
export const ZResetBody = z.object({ token: z.string().min(1).max(200), password: ZPassword }).strip();

/** account.changePassword */
export const ZChangePasswordInput = z.object({ current_password: z.string().max(200), new_password: ZPassword }).strict();

/**
 * account.resendInvitation: `company_cuid` is the company the admin resends from (a company of the
 * user where the admin is an admin); the mail counts against its budgets only. Left out: the first
 * such company.
 */
export const ZResendInvitationInput = z.object({ user_cuid: ZCuid, company_cuid: ZCuid.optional() }).strict();
export { ZInvitationOutcome };
