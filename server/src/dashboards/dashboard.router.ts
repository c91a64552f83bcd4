import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { checkedCrudRouter } from '../crud/checked-crud-router';
import { CrudService } from '../crud/crud.service';
import { DATA_SOURCE } from '../database/database.module';
import { checkDashboard, dashboardResource } from './dashboard.resource';

/** `dashboard`: the generated CRUD router, with the owner company and role checked before a write. */
@Injectable()
export class DashboardRouter {
  readonly router;

  constructor(crud: CrudService, @Inject(DATA_SOURCE) ds: DataSource) {
    const query = (sql: string, params: unknown[]) => ds.query(sql, params) as Promise<unknown[]>;
    this.router = checkedCrudRouter(dashboardResource, crud, { check: (_kind, row) => checkDashboard(query, row) });
  }
}
