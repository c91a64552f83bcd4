import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { crudRouter } from '../crud/crud-router.factory';
import { CrudService } from '../crud/crud.service';
import { DATA_SOURCE } from '../database/database.module';
import { checkDashboard, dashboardResource } from './dashboard.resource';

/** `dashboard`: the generated CRUD router, with the owner company and role checked before a write. */
@Injectable()
export class DashboardRouter {
  readonly router;

  constructor(crud: CrudService, @Inject(DATA_SOURCE) ds: DataSource) {
    const query = (sql: string, params: unknown[]) => ds.query(sql, params) as Promise<unknown[]>;
    this.router = crudRouter(dashboardResource, crud, { checkInput: (_kind, row) => checkDashboard(query, row) });
  }
}
