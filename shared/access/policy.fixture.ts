/** The actors the policy specs judge (policy.spec.ts, policy-systems.spec.ts): one per level in company A, and others. */
import type { Actor } from './policy';

export const A = 'company-a';
export const B = 'company-b';
export const member = (user_cuid: string, ...ms: [company: string, level: number, admin?: boolean][]): Actor => ({
  user_cuid,
  memberships: ms.map(([company_cuid, level, is_company_admin = false]) => ({ company_cuid, level, is_company_admin })),
});

export const superuser = member('su', [A, 0, true]);
export const installer = member('inst', [A, 1]);
export const expert = member('exp', [A, 2]);
export const basic = member('bas', [A, 3]);
export const basicAdmin = member('badm', [A, 3, true]);
