import { type Actor, isSuperUser } from '../../../shared/access/policy';

/** The companies a caller can reach, computed once per call and put into every `where`. */
export interface Scope {
  user_cuid: string;
  superuser: boolean;
  /** Companies the caller belongs to. */
  companies: string[];
  /** Companies where the caller is company admin. */
  adminCompanies: string[];
  /** The caller's most powerful role level in each of their companies (lower is more powerful). */
  levels?: Readonly<Record<string, number>>;
}

export function scopeOf(actor: Actor): Scope {
  return {
    user_cuid: actor.user_cuid,
    superuser: isSuperUser(actor),
    companies: [...new Set(actor.memberships.map((m) => m.company_cuid))],
    adminCompanies: [...new Set(actor.memberships.filter((m) => m.is_company_admin).map((m) => m.company_cuid))],
    levels: actor.memberships.reduce<Record<string, number>>((best, m) => {
      best[m.company_cuid] = Math.min(best[m.company_cuid] ?? Number.POSITIVE_INFINITY, m.level);
      return best;
    }, {}),
  };
}
