import type { TSessionMembership } from './session.schema';

/**
 * Memberships with their company, user and role, as one SELECT (add WHERE / ORDER BY): the session
 * context and the memberships resource read them the same way.
 */
export const MEMBERSHIP_SELECT = `
  SELECT m.membership_cuid, m.role_cuid, m.user_cuid, m.company_cuid, m.is_company_admin,
         c.name AS company_name, c.url AS company_url, c.logo AS company_logo,
         u.email, u.name AS user_name, u.phone, u.inactive, u.meta,
         r.name AS role_name, r.level AS role_level, r.description AS role_description
    FROM company_membership m
    JOIN company c ON c.company_cuid = m.company_cuid
    JOIN "user" u ON u.user_cuid = m.user_cuid
    JOIN role r ON r.role_cuid = m.role_cuid`;

/** One row of MEMBERSHIP_SELECT as spec §3.1 shapes a membership. */
export function membershipFromRow(m: Record<string, any>): TSessionMembership {
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
