import type { DataSource, EntityManager } from 'typeorm';

/** What a repository runs its SQL on: the data source, or one transaction of it (rows the caller types). */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown[]>;
}

/**
 * The transaction part of a repository: the service decides when work is all or nothing, the
 * repository opens the transaction and hands back a copy of itself bound to it (and the
 * transaction, for helpers such as keepOwnSession that run their own SQL in it).
 */
export interface Transactional<R> {
  transaction<T>(work: (rows: R, tx: Queryable) => Promise<T>): Promise<T>;
}

/**
 * Base of the SQL repositories: `db` is the data source, or the transaction this copy is bound to.
 * Inside a transaction, `transaction()` runs on the same one (never a second connection: the
 * embedded database has a single one, a nested transaction would wait forever).
 */
export abstract class SqlRepository<R> implements Transactional<R> {
  protected db: Queryable;
  private bound?: EntityManager;

  constructor(protected readonly ds: DataSource) {
    this.db = ds;
  }

  /** A copy of this repository (its class, on the same data source), to bind to a transaction. */
  protected copy(): SqlRepository<R> {
    return new (this.constructor as new (ds: DataSource) => SqlRepository<R>)(this.ds);
  }

  async transaction<T>(work: (rows: R, tx: Queryable) => Promise<T>): Promise<T> {
    if (this.bound) return work(this as unknown as R, this.bound);
    return this.ds.transaction(async (tx) => {
      const rows = this.copy();
      rows.db = tx;
      rows.bound = tx;
      return work(rows as unknown as R, tx);
    });
  }
}
