import { Injectable } from '@nestjs/common';
import type { Actor } from '../../../shared/access/policy';
import { scopeOf } from '../access/scope';
import { checkDashboard } from './dashboard.resource';
import { DashboardsRepository, type MineDashboardRow } from './dashboards.repository';

/** Most dashboards `dashboard.mine` answers (the home shows a handful). */
export const MINE_LIMIT = 200;

/** Dashboards beside the generic CRUD: the caller's own list, and the checks before a write. */
@Injectable()
export class DashboardsService {
  constructor(private readonly repo: DashboardsRepository) {}

  /** The dashboards the caller sees (their companies' and visible systems', for their role level or above), of one system if given. */
  mine(actor: Actor, system_cuid?: string): Promise<MineDashboardRow[]> {
    return this.repo.mine(scopeOf(actor), MINE_LIMIT, system_cuid);
  }

  /** Before a dashboard is written: its owner and role exist (dashboard.resource.ts). */
  checkInput(row: Record<string, unknown>): Promise<void> {
    return checkDashboard(this.repo, row);
  }
}
