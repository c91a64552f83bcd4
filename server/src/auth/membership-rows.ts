import type { TSessionMembership } from './session.schema';
import type { MembershipRow } from './sessions.repository';

/** One row of the membership query in sessions.repository.ts, shaped as spec §3.1 shapes a membership. */
export function membershipFromRow(m: MembershipRow): TSessionMembership {
  return {
    membership_cuid: m.membership_cuid,
    role_cuid: m.role_cuid,
    user_cuid: m.user_cuid,
    company_cuid: m.company_cuid,
    is_company_admin: m.is_company_admin,
    company: { company_cuid: m.company_cuid, name: m.company_name, url: m.company_url, logo: m.company_logo },
    user: { user_cuid: m.user_cuid, email: m.email, name: m.user_name, phone: m.phone, inactive: m.inactive, meta: m.meta ?? {} },
    role: { role_cuid: m.role_cuid, name: m.role_name, level: Number(m.role_level), description: m.role_description },
  };
}
