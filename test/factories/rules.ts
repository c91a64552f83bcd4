import { TRPCError } from '@trpc/server';
import type { Actor } from '../../shared/access/policy';

/** A caller with one membership, as the policy sees them (for the services' rule tests). */
export const actor = (user_cuid: string, company_cuid: string, level: number, is_company_admin = false): Actor => ({
  user_cuid,
  memberships: [{ company_cuid, level, is_company_admin }],
});

/** `OK`, or the tRPC error a call ends with as "CODE: message" (anything else is rethrown). */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof TRPCError) return `${e.code}: ${e.message}`;
    throw e;
  }
  return 'OK';
}
