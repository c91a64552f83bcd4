import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Queryable } from '../database/repository';
import { DATA_SOURCE } from '../database/database.module';
import { SqlParams } from '../database/sql-params';
import { type Caller, systemSharesSql, visibleSystemSql } from '../tenancy/visibility';

/** A system the caller sees, with what the policy needs to judge a permission on it. */
export interface VisibleSystem {
  system_cuid: string;
  company_cuid: string;
  name: string;
  timezone: string;
  shares: { company_cuid: string; change: boolean }[];
}

/** The SQL of "may this caller see this system": the caller first, then the id. */
@Injectable()
export class SystemAccessRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /** The system if the caller sees it (tenancy/visibility.ts), in the caller's transaction when `tx` is given. */
  async visible(caller: Caller, system_cuid: string, tx: Queryable = this.ds): Promise<VisibleSystem | undefined> {
    const p = new SqlParams([system_cuid]);
    const [row] = (await tx.query(
      `SELECT s.system_cuid, s.company_cuid, s.name, s.timezone, ${systemSharesSql('s')} AS shares
         FROM system s
        WHERE s.system_cuid = $1 AND ${visibleSystemSql(caller, p, 's')}`,
      p.values,
    )) as VisibleSystem[];
    return row;
  }
}
