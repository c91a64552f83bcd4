import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { type Actor, isSuperUser, type Permission, POLICY } from '../../../shared/access/policy';
import { scopeOf, type Scope } from '../access/scope';
import { notFound } from '../common/errors';
import { AppConfig } from '../config/config';
import { fieldError } from '../common/field-error';
import type { SystemStateSettings } from '../systems/system-state.repository';
import { FleetRepository, type OverviewScopes } from './fleet.repository';
import type { TFleetOverview, ZFleetEnergy, ZFleetEnergyInput } from './fleet.schema';
import { SharedResultCache } from './shared-result-cache';

/** The permission a section needs in a company (fleet.schema); its level is the policy's, written once there. */
const SECTION_PERMISSION = { pins: 'sites.view', alarms: 'eventTriggers.view', commands: 'controllers.configure' } as const satisfies Record<
  string,
  Permission
>;
/** fleet.energy's longest range per granularity. */
export const ENERGY_MAX_DAYS = 400;
export const ENERGY_MAX_MONTHS = 120;

/** The fleet overview and fleet energy (docs/home.md). */
@Injectable()
export class FleetService {
  private readonly cache: SharedResultCache<TFleetOverview>;

  constructor(
    private readonly config: AppConfig,
    private readonly repo: FleetRepository,
  ) {
    this.cache = new SharedResultCache<TFleetOverview>(config.OVERVIEW_CACHE_MS, 500);
  }

  private get settings(): SystemStateSettings {
    return {
      socParameter: this.config.FLEET_SOC_PARAMETER,
      staleMinutes: this.config.FLEET_STALE_MINUTES,
      lowSocPercent: this.config.FLEET_LOW_SOC_PERCENT,
    };
  }

  /**
   * The caller's home. Callers who see the same systems at the same levels share one computed
   * overview for OVERVIEW_CACHE_MS (key: superuser, or the caller's sorted company:level pairs,
   * and the company filter).
   */
  async overview(actor: Actor, input: { company_cuid?: string }): Promise<TFleetOverview> {
    const scopes = this.scopes(actor, input.company_cuid);
    const superuser = isSuperUser(actor);
    const key = `${
      superuser
        ? '*'
        : levelsByCompany(actor)
            .map(([c, l]) => `${c}:${l}`)
            .join(',')
    }|${input.company_cuid ?? ''}`;
    return this.cache.get(key, async () => {
      if (superuser && input.company_cuid && !(await this.repo.companyExists(input.company_cuid))) throw notFound('Company');
      const generated_at = new Date();
      return { generated_at, ...(await this.repo.overview(scopes, this.settings)) };
    });
  }

  async energy(actor: Actor, input: z.infer<typeof ZFleetEnergyInput>): Promise<z.infer<typeof ZFleetEnergy>> {
    if (input.to.getTime() <= input.from.getTime()) throw fieldError(['to'], 'The end must be after the start');
    const days = (input.to.getTime() - input.from.getTime()) / 86_400_000;
    if (input.granularity === 'day' && days > ENERGY_MAX_DAYS) throw fieldError(['to'], `At most ${ENERGY_MAX_DAYS} days per day`);
    if (input.granularity === 'month' && days > ENERGY_MAX_MONTHS * 31) throw fieldError(['to'], `At most ${ENERGY_MAX_MONTHS} months`);
    const { base } = this.scopes(actor, input.company_cuid);
    if (isSuperUser(actor) && input.company_cuid && !(await this.repo.companyExists(input.company_cuid))) throw notFound('Company');
    const periods = await this.repo.energy(base, input);
    const total = Math.round(periods.reduce((s, p) => s + (p.kwh ?? 0), 0) * 1000) / 1000;
    return { granularity: input.granularity, periods, total_kwh: total };
  }

  mapSettings(): { tile_url: string; attribution: string } {
    return { tile_url: this.config.MAP_TILE_URL, attribution: this.config.MAP_TILE_ATTRIBUTION };
  }

  /**
   * The systems the caller sees (optionally one company of theirs) and, per section, a scope of only
   * the companies where their level allows it. A company that is not the caller's answers NOT_FOUND.
   */
  private scopes(actor: Actor, company_cuid?: string): OverviewScopes {
    const scope = scopeOf(actor);
    const levels = new Map(levelsByCompany(actor));
    if (company_cuid !== undefined && !scope.superuser && !levels.has(company_cuid)) throw notFound('Company');
    const sub = (companies: string[]): Scope => ({ ...scope, superuser: false, companies, adminCompanies: [] });
    const base: Scope = company_cuid !== undefined ? sub([company_cuid]) : scope;
    const section = (level: number): Scope | null => {
      if (scope.superuser) return base;
      const companies = base.companies.filter((c) => (levels.get(c) ?? 99) <= level);
      return companies.length ? sub(companies) : null;
    };
    const level = (section: keyof typeof SECTION_PERMISSION): number => POLICY[SECTION_PERMISSION[section]].level;
    return { base, pins: section(level('pins')), alarms: section(level('alarms')), commands: section(level('commands')) };
  }
}

/** The caller's most powerful level in each of their companies, sorted by company. */
function levelsByCompany(actor: Actor): [string, number][] {
  const best = new Map<string, number>();
  for (const m of actor.memberships) best.set(m.company_cuid, Math.min(m.level, best.get(m.company_cuid) ?? Number.POSITIVE_INFINITY));
  return [...best.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
