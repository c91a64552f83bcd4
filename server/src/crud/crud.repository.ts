import type { DataSource, EntityManager } from 'typeorm';
import type { Scope } from '../access/scope';
import type { AppConfig } from '../config/config';
import { PreparedStatements } from '../database/prepared-statements';
import { SqlParams } from '../database/sql-params';
import type { TGetListParams } from './crud.schema';
import type { ComputedColumns, ResourceDefinition } from './resource';
import { insertSql, listWhere, quote, type Row, scopeSql, selectSql, updateSql } from './sql-builder';

type Extra = { target: string; id: string } | undefined;

/**
 * Every statement of the generic CRUD (crud.service.ts keeps the rules: permissions, counts,
 * references). Reads take the caller's scope first and put it in their `where`; writes run in the
 * caller's transaction on a row the service has just read under that scope (`FOR UPDATE`) and
 * authorized. Identifiers come from the definition only (sql-builder quotes them); values are
 * parameters.
 */
export class CrudRepository {
  /** The computed columns of a list page, one named statement per resource (pageThenComputed). */
  private readonly prepared: PreparedStatements;

  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
  ) {
    this.prepared = new PreparedStatements(ds);
  }

  /** The resource's computed columns for one statement (parameters in `p`), or none. */
  private computedOf(def: ResourceDefinition, p: SqlParams): ComputedColumns | undefined {
    return def.computed?.(p, this.config);
  }

  /**
   * The `where` of a list: scope and plain filters (sql-builder), plus the filters of computed
   * columns (those need the computed joins).
   */
  private listConditions(
    def: ResourceDefinition,
    scope: Scope,
    params: { filter: Record<string, unknown> },
    p: SqlParams,
    extra: Extra,
    computed: ComputedColumns | undefined,
  ) {
    const plain: Record<string, unknown> = {};
    const own: [string, unknown][] = [];
    for (const [k, v] of Object.entries(params.filter)) {
      // Own keys only: a filter named after an Object.prototype member (`constructor`, `toString` …)
      // must not reach a function that is not a filter (its result would become SQL text).
      if (computed?.filters && Object.hasOwn(computed.filters, k)) {
        if (v !== undefined && v !== '') own.push([k, v]);
      } else plain[k] = v;
    }
    const where = listWhere(def, scope, plain, p, extra);
    for (const [k, v] of own) where.push(computed!.filters![k](v, p));
    return { where, computedFilter: own.length > 0 };
  }

  /**
   * One page of a list in the caller's scope, sorted by `sortField` (checked by the service). Not
   * async on purpose: the statement is built, and a bad filter refused, before this returns, so the
   * caller can start the count beside it knowing nothing was sent.
   */
  listPage(scope: Scope, def: ResourceDefinition, params: TGetListParams, sortField: string, order: 'ASC' | 'DESC' | undefined, extra: Extra): Promise<Row[]> {
    // Which computed columns the list needs in its WHERE or ORDER BY (their names only: no parameters yet).
    const shape = this.computedOf(def, new SqlParams());
    const computedSortShape = shape ? (ownValue(shape.sortExpressions, sortField) ?? ownValue(shape.columns, sortField)) : undefined;
    const computedFilterShape = Object.keys(shape?.filters ?? {}).some(
      (n) => Object.hasOwn(params.filter, n) && params.filter[n] !== undefined && params.filter[n] !== '',
    );
    const { page, perPage } = params.pagination;
    if (shape && !computedSortShape && !computedFilterShape) {
      // The page is chosen by a plain query, then its rows' computed columns are read by key.
      const p = new SqlParams();
      // `shape` only routes the (empty) computed filters away from the plain ones; it adds no parameter.
      const { where } = this.listConditions(def, scope, params, p, extra, shape);
      const keySql = `SELECT t.${quote(def.key)}::text AS k FROM ${quote(def.table)} t WHERE ${where.join(' AND ')} ${this.orderSql(def, sortField, order, undefined)} LIMIT ${p.add(perPage)} OFFSET ${p.add((page - 1) * perPage)}`;
      return this.pageThenComputed(def, scope, keySql, p.values);
    }
    const p = new SqlParams();
    const computed = shape ? this.computedOf(def, p) : undefined;
    const { where } = this.listConditions(def, scope, params, p, extra, computed);
    const computedSort = computed ? (ownValue(computed.sortExpressions, sortField) ?? ownValue(computed.columns, sortField)) : undefined;
    const orderBy = this.orderSql(def, sortField, order, computedSort);
    const limit = `LIMIT ${p.add(perPage)} OFFSET ${p.add((page - 1) * perPage)}`;
    const from = `${quote(def.table)} t`;
    // Sorted or filtered by a computed column: computed for every row of the list.
    const sql = !computed
      ? `SELECT ${selectSql(def)} FROM ${from} WHERE ${where.join(' AND ')} ${orderBy} ${limit}`
      : `SELECT ${selectSql(def, computed.columns)} FROM ${from} ${computed.joins} WHERE ${where.join(' AND ')} ${orderBy} ${limit}`;
    return this.ds.query<Row[]>(sql, p.values);
  }

  /** `ORDER BY` of a list: the sort column (or a computed expression), then the key for a stable order. */
  private orderSql(def: ResourceDefinition, sortField: string, order: 'ASC' | 'DESC' | undefined, computedSort: string | undefined): string {
    // Nulls come last either way. ASC puts them there already; DESC says so only for a column that
    // can be null, since an index (read backwards) serves `DESC` but not `DESC NULLS LAST`.
    const sortColumn = this.ds.entityMetadatas.find((m) => m.tableName === def.table)?.findColumnWithDatabaseName(sortField);
    const direction =
      order !== 'DESC' ? (computedSort ? 'ASC NULLS LAST' : 'ASC') : !computedSort && sortColumn && !sortColumn.isNullable ? 'DESC' : 'DESC NULLS LAST';
    return `ORDER BY ${computedSort ?? `t.${quote(sortField)}`} ${direction}, t.${quote(def.key)} ASC`;
  }

  /**
   * A list page of a resource with computed columns, sorted and filtered by its own columns. Two
   * statements: the page's keys by `keySql` (scope, filters, order, limit), planned for its
   * values on each call; then the computed columns of those rows by key, as a statement prepared
   * once per connection — its plan (index lookups per key, whatever the caller) is kept by
   * PostgreSQL, where planning the computed columns' joins took most of a list request's database
   * time (1.1 of 1.8 ms for systems; docs/scaling.md). One statement per resource and scope
   * shape (superuser, companies); rows come back in the page's order.
   */
  private async pageThenComputed(def: ResourceDefinition, scope: Scope, keySql: string, values: unknown[]): Promise<Row[]> {
    const keys = (await this.ds.query<{ k: string }[]>(keySql, values)).map((r) => r.k);
    if (keys.length === 0) return [];
    const q = new SqlParams();
    const computed = this.computedOf(def, q)!;
    // Scoped again: the rows are read under the caller's scope like every statement, not on trust of the first.
    const text = `SELECT ${selectSql(def, computed.columns)}
       FROM (SELECT t.* FROM ${quote(def.table)} t WHERE t.${quote(def.key)}::text = ANY(${q.add(keys)}::text[]) AND ${scopeSql(def, scope, q)}) t ${computed.joins}`;
    const rows = await this.prepared.query<Row>(`crud-computed-${def.name}`, text, q.values);
    const byKey = new Map(rows.map((r) => [String(r[def.key]), r]));
    // A row deleted between the two statements is simply not in the page.
    return keys.flatMap((k): Row[] => {
      const row = byKey.get(k);
      return row ? [row] : [];
    });
  }

  /** How many rows a list has in the caller's scope (the service caches it). */
  async count(scope: Scope, def: ResourceDefinition, filter: Record<string, unknown>, extra: Extra): Promise<number> {
    const q = new SqlParams();
    // Computed joins only for a filter on a computed column (their parameters would go unused otherwise).
    const names = Object.keys(this.computedOf(def, new SqlParams())?.filters ?? {});
    const computed = names.some((n) => filter[n] !== undefined && filter[n] !== '') ? this.computedOf(def, q) : undefined;
    const { where } = this.listConditions(def, scope, { filter }, q, extra, computed);
    const joins = computed?.joins ?? '';
    const rows = await this.ds.query<{ n: string }[]>(`SELECT count(*) AS n FROM ${quote(def.table)} t ${joins} WHERE ${where.join(' AND ')}`, q.values);
    return Number(rows[0].n);
  }

  /**
   * Rows by key within the caller's scope (`scope` null: unscoped, only for a row the caller has
   * just created in `manager`'s transaction); `lock` takes `FOR UPDATE` on the resource's rows.
   */
  async byKeys(scope: Scope | null, def: ResourceDefinition, ids: string[], manager: EntityManager = this.ds.manager, lock = false): Promise<Row[]> {
    const p = new SqlParams();
    // `FOR UPDATE OF t` locks the resource's row only, not what the computed columns read.
    const computed = this.computedOf(def, p);
    const where = scope ? scopeSql(def, scope, p) : 'TRUE';
    return await manager.query<Row[]>(
      `SELECT ${selectSql(def, computed?.columns)} FROM ${quote(def.table)} t ${computed?.joins ?? ''}
        WHERE t.${quote(def.key)}::text = ANY(${p.add(ids)}::text[]) AND ${where}${lock ? ' FOR UPDATE OF t' : ''}`,
      p.values,
    );
  }

  /** Inserts an authorized row in the caller's transaction; answers its key. */
  async insert(tx: EntityManager, def: ResourceDefinition, row: Row): Promise<unknown> {
    const p = new SqlParams();
    const [inserted] = await tx.query<{ key: unknown }[]>(insertSql(def, row, p), p.values);
    return inserted.key;
  }

  /** Writes `cols` of `changes` to a row read under the caller's scope and locked in `tx`. */
  async update(tx: EntityManager, def: ResourceDefinition, id: string, changes: Row, cols: string[]): Promise<void> {
    const p = new SqlParams();
    await tx.query(updateSql(def, id, changes, cols, p), p.values);
  }

  /** Deletes a row read under the caller's scope and locked in `tx`. */
  async delete(tx: EntityManager, def: ResourceDefinition, id: string): Promise<void> {
    await tx.query(`DELETE FROM ${quote(def.table)} WHERE ${quote(def.key)}::text = $1`, [id]);
  }
}

/** `map[key]` when `key` is the map's own (never an inherited Object.prototype member). */
function ownValue<T>(map: Record<string, T> | undefined, key: string): T | undefined {
  return map && Object.hasOwn(map, key) ? map[key] : undefined;
}
