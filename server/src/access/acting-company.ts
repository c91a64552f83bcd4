import { type Actor, levelIn } from '../../../shared/access/policy';

/**
 * The company an actor acts from on a system, which is charged for what they do there (an export
 * job, a trigger, a data processor): the system's owner when the actor holds `level` there (or is
 * a superuser), else the first company (by id) among `shares` where they do; else the owner. A
 * partner's work never counts against the owner's budgets.
 */
export function actingCompany(actor: Actor, level: number, system: { company_cuid: string; shares: readonly { company_cuid: string }[] }): string {
  if (levelIn(actor, system.company_cuid) <= level) return system.company_cuid;
  const via = system.shares
    .map((s) => s.company_cuid)
    .filter((c) => levelIn(actor, c) <= level)
    .sort()[0];
  return via ?? system.company_cuid;
}
