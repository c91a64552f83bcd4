import { z } from 'zod';
import { ZCuid } from '../users/users.schema';

export const ZAuthToken = z.object({
  token_cuid: z.string(),
  description: z.string().nullable(),
  company_cuid: z.string(),
  created_by_user_cuid: z.string().nullable(),
  created_at: z.date(),
  last_used_at: z.date().nullable(),
  expires_at: z.date().nullable(),
  revoked_at: z.date().nullable(),
});
export type TAuthToken = z.infer<typeof ZAuthToken>;

export const ZAuthTokenCreateInput = z.object({
  company_cuid: ZCuid,
  description: z.string().trim().min(1, 'Required').max(200),
  expires_at: z.date().min(new Date(0)).nullable().optional(),
});

/** The secret is in this answer only; the database keeps its SHA-256. */
export const ZAuthTokenCreated = ZAuthToken.extend({ secret: z.string() });

export const ZAuthTokenListInput = z.object({ company_cuid: ZCuid.optional(), include_revoked: z.boolean().optional() }).optional();

export const ZAuthTokenRevokeInput = z.object({ token_cuid: ZCuid });

// ---- react-admin resource `authToken` (never the secret or its hash) ---------------------------

export const ZAuthTokenRecord = ZAuthToken.extend({ id: z.string() });
export type TAuthTokenRecord = z.infer<typeof ZAuthTokenRecord>;
export const AUTH_TOKEN_SORTS = ['id', 'token_cuid', 'description', 'created_at', 'last_used_at', 'expires_at', 'revoked_at'] as const;
