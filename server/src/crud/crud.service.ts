import { Inject, Injectable } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import { type DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { ZodError } from 'zod';
import { type Actor, can, type Permission, type PolicyTarget } from '../access/policy';
import { forbidden, notFound } from '../common/errors';
import { newCuid } from '../common/ids';
import { scopeOf, type Scope } from '../access/scope';
import { ownedOrSharedSql, systemSharesSql, visibleCompanySql, visibleSystemIdSql, visibleSystemSql } from '../tenancy/visibility';
import { DATA_SOURCE } from '../database/database.module';
import { toTrpcError } from '../trpc/errors';
import { coerceRow } from './csv-coerce';
import type { TGetListParams } from './crud.schema';
import type { ResourceDefinition } from './resource';

type Row = Record<string, unknown>;

export type ImportMode = 'validate' | 'all' | 'validOnly';
export interface ImportError {
  /** 0-based index of the row in the input. */
  row: number;
  field?: string;
  message: string;
}
export interface ImportResult {
  created: number;
  ids: string[];
  errors: ImportError[];
}

/** Marks errors thrown by `check` as being about `field` (an import reports them on that column). */
async function withField<T>(field: string | undefined, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (field && error instanceof TRPCError && !(error as { field?: string }).field) Object.assign(error, { field });
    throw error;
  }
}

/** A database refusal we have no words for is still the row's problem, not the server's. */
const rowMessage = (e: TRPCError) => (e.code === 'INTERNAL_SERVER_ERROR' ? 'This row could not be saved' : e.message);

/** What one refused import row tells the user: never SQL, never a stack. */
function rowError(error: unknown): { field?: string; message: string } {
  if (error instanceof TRPCError && error.cause instanceof ZodError && error.cause.issues.length) {
    const [issue] = error.cause.issues;
    return { ...(issue.path.length ? { field: String(issue.path[0]) } : {}), message: issue.message };
  }
  if (error instanceof TRPCError) {
    const field = (error as { field?: string }).field;
    return { ...(field ? { field } : {}), message: error.message };
  }
  if (error instanceof QueryFailedError) {
    const driver = (error as QueryFailedError & { driverError?: { code?: string; detail?: string; column?: string } }).driverError ?? {};
    // PostgreSQL names the columns in the detail: Key (name)=(x) already exists.
    const columns = /^Key \(([^)]*)\)=/.exec(driver.detail ?? '')?.[1]?.split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
    const field = driver.column ?? columns?.[columns.length - 1];
    const message =
      driver.code === '23505' ? 'already exists' : driver.code === '23503' ? 'not found' : rowMessage(toTrpcError(error));
    return { ...(field ? { field } : {}), message };
  }
  return { message: 'This row could not be saved' };
}

const quote = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`;

/** Collects positional parameters while SQL is assembled. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * react-admin's nine data-provider calls over any resource definition, with the caller's
 * companies in every `where`. Identifiers come from the definition only; values are parameters.
 */
@Injectable()
export class CrudService {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  private columns(def: ResourceDefinition): string[] {
    return Object.keys(def.record.shape);
  }

  private select(def: ResourceDefinition): string {
    return this.columns(def)
      .map((c) => `${def.selectExpressions?.[c] ?? `t.${quote(c)}`} AS ${quote(c)}`)
      .join(', ');
  }

  /** SQL condition limiting rows of `t` to what the caller may see. */
  private scopeSql(def: ResourceDefinition, scope: Scope, p: Params): string {
    if (def.baseWhere) return `(${def.baseWhere}) AND ${this.scopeSql({ ...def, baseWhere: undefined }, scope, p)}`;
    if (scope.superuser || def.scope.kind === 'global') return 'TRUE';
    switch (def.scope.kind) {
      case 'company':
        return visibleCompanySql(scope, p, `t.${quote(def.scope.column)}`);
      case 'companyOrGlobal':
        return visibleCompanySql(scope, p, `t.${quote(def.scope.column)}`, { orGlobal: true });
      case 'systemSelf':
        return ownedOrSharedSql(scope, p, { company: 't.company_cuid', system: 't.system_cuid' });
      case 'system':
        return visibleSystemIdSql(scope, p, `t.${quote(def.scope.column)}`);
    }
  }

  private withId(def: ResourceDefinition, row: Row): Row {
    return { ...row, id: String(row[def.key]) };
  }

  private filterSql(def: ResourceDefinition, filter: Record<string, unknown>, p: Params): string[] {
    const parts: string[] = [];
    for (const [field, value] of Object.entries(filter)) {
      if (value === undefined || value === '') continue;
      if (field === 'q') {
        if (!def.search.length) continue;
        const needle = p.add(`%${String(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        parts.push(`(${def.search.map((c) => `t.${quote(c)}::text ILIKE ${needle}`).join(' OR ')})`);
        continue;
      }
      const column = field === 'id' ? def.key : field;
      if (field !== 'id' && !def.filters.includes(field)) {
        throw new TRPCError({ code: 'BAD_REQUEST', message: `Unknown filter: ${field}` });
      }
      if (value === null) parts.push(`t.${quote(column)} IS NULL`);
      else if (Array.isArray(value)) parts.push(`t.${quote(column)}::text = ANY(${p.add(value.map(String))}::text[])`);
      else parts.push(`t.${quote(column)}::text = ${p.add(String(value))}`);
    }
    return parts;
  }

  async getList(actor: Actor, def: ResourceDefinition, params: TGetListParams, extra?: { target: string; id: string }) {
    const p = new Params();
    const where = [this.scopeSql(def, scopeOf(actor), p), ...this.filterSql(def, params.filter, p)];
    if (extra) {
      if (!def.filters.includes(extra.target)) throw new TRPCError({ code: 'BAD_REQUEST', message: `Unknown reference: ${extra.target}` });
      where.push(`t.${quote(extra.target)}::text = ${p.add(extra.id)}`);
    }
    const sort = params.sort ?? def.defaultSort;
    const sortField = sort.field === 'id' ? def.key : sort.field;
    if (sortField !== def.key && !def.sorts.includes(sortField)) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: `Cannot sort by ${sort.field}` });
    }
    // Nulls come last either way. ASC puts them there already; DESC says so only for a column that
    // can be null, since an index (read backwards) serves `DESC` but not `DESC NULLS LAST`.
    const sortColumn = this.ds.entityMetadatas.find((m) => m.tableName === def.table)?.findColumnWithDatabaseName(sortField);
    const direction = sort.order !== 'DESC' ? 'ASC' : sortColumn && !sortColumn.isNullable ? 'DESC' : 'DESC NULLS LAST';
    const { page, perPage } = params.pagination;
    const [rows, total] = await Promise.all([
      this.ds.query(
        `SELECT ${this.select(def)}
           FROM ${quote(def.table)} t
          WHERE ${where.join(' AND ')}
          ORDER BY t.${quote(sortField)} ${direction}, t.${quote(def.key)} ASC
          LIMIT ${p.add(perPage)} OFFSET ${p.add((page - 1) * perPage)}`,
        p.values,
      ) as Promise<Row[]>,
      this.count(def, actor, params.filter, extra),
    ]);
    return { data: rows.map((r) => this.withId(def, r)), total };
  }

  /**
   * How many rows a list has. Counting a large scoped table costs far more than reading one page,
   * so a count is kept for COUNT_CACHE_MS per (resource, caller's companies, filter) and dropped
   * when this service writes to the resource; another instance's writes show within that time.
   */
  private readonly counts = new Map<string, { at: number; total: Promise<number>; refreshing?: boolean }>();

  private async count(def: ResourceDefinition, actor: Actor, filter: Record<string, unknown>, extra?: { target: string; id: string }): Promise<number> {
    const scope = scopeOf(actor);
    const key = JSON.stringify([def.table, def.name, scope.superuser || def.scope.kind === 'global' ? '*' : [...scope.companies].sort(), filter, extra ?? null]);
    const query = (): Promise<number> => {
      const q = new Params();
      const where = [this.scopeSql(def, scope, q), ...this.filterSql(def, filter, q)];
      if (extra) where.push(`t.${quote(extra.target)}::text = ${q.add(extra.id)}`);
      return this.ds
        .query(`SELECT count(*) AS n FROM ${quote(def.table)} t WHERE ${where.join(' AND ')}`, q.values)
        .then((r: { n: string }[]) => Number(r[0].n));
    };
    const hit = this.counts.get(key);
    const now = Date.now();
    if (hit && now - hit.at < CrudService.COUNT_CACHE_MS) {
      // In its last second a count is recounted by one caller while the others still get it, so a
      // busy list never waits for a count. The new one replaces it only if no write dropped it
      // meanwhile (the recount may have started before that write).
      if (!hit.refreshing && now - hit.at >= CrudService.COUNT_CACHE_MS - 1_000) {
        hit.refreshing = true;
        query().then(
          (n) => {
            if (this.counts.get(key) === hit) this.counts.set(key, { at: now, total: Promise.resolve(n) });
          },
          () => (hit.refreshing = false),
        );
      }
      return hit.total;
    }
    const total = query();
    if (this.counts.size > 10_000) this.counts.clear();
    this.counts.set(key, { at: Date.now(), total });
    total.catch(() => this.counts.delete(key));
    return total;
  }

  private static readonly COUNT_CACHE_MS = 5_000;

  /** Runs a write and drops the table's cached counts once it is committed (or failed). */
  private async afterWrite<T>(def: ResourceDefinition, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      this.forgetCounts(def);
    }
  }

  /**
   * Writes made outside this service that change what callers see (a new share makes a whole
   * system visible to another company) drop every cached count.
   */
  forgetAllCounts(): void {
    this.counts.clear();
  }

  /** A write to a table makes its cached counts stale. */
  private forgetCounts(def: ResourceDefinition): void {
    const prefix = `[${JSON.stringify(def.table)},`;
    for (const key of this.counts.keys()) if (key.startsWith(prefix)) this.counts.delete(key);
  }

  /** Rows by key within the caller's scope (`actor` null: unscoped, for a row just created). */
  private async loadMany(actor: Actor | null, def: ResourceDefinition, ids: string[], manager: EntityManager = this.ds.manager, lock = false): Promise<Row[]> {
    const p = new Params();
    const scope = actor ? this.scopeSql(def, scopeOf(actor), p) : 'TRUE';
    return (await manager.query(
      `SELECT ${this.select(def)} FROM ${quote(def.table)} t
        WHERE t.${quote(def.key)}::text = ANY(${p.add(ids)}::text[]) AND ${scope}${lock ? ' FOR UPDATE OF t' : ''}`,
      p.values,
    )) as Row[];
  }

  async getOne(actor: Actor, def: ResourceDefinition, id: string) {
    const [row] = await this.loadMany(actor, def, [id]);
    if (!row) throw notFound(def.label);
    return { data: this.withId(def, row) };
  }

  async getMany(actor: Actor, def: ResourceDefinition, ids: string[]) {
    const rows = await this.loadMany(actor, def, [...new Set(ids)]);
    return { data: rows.map((r) => this.withId(def, r)) };
  }

  /** Per visible record: may the caller edit it, delete it (the same checks update/delete make)? */
  async access(actor: Actor, def: ResourceDefinition, ids: string[]) {
    const rows = await this.loadMany(actor, def, [...new Set(ids)]);
    const data: Record<string, { edit: boolean; delete: boolean }> = {};
    for (const row of rows) {
      const target = await this.target(def, row, this.ds.manager);
      data[String(row[def.key])] = { edit: can(actor, def.perms.edit, target), delete: can(actor, def.perms.delete, target) };
    }
    return { data };
  }

  /** What the policy's target rule looks at, for a row (or an input) of this resource (with `def.targetExtra`). */
  private async target(def: ResourceDefinition, row: Row, manager: EntityManager): Promise<PolicyTarget> {
    const base = await this.scopeTarget(def, row, manager);
    return def.targetExtra ? { ...base, ...(await def.targetExtra(manager, row)) } : base;
  }

  private async scopeTarget(def: ResourceDefinition, row: Row, manager: EntityManager): Promise<PolicyTarget> {
    switch (def.scope.kind) {
      case 'global':
        return {};
      case 'company':
      case 'companyOrGlobal':
        return { company_cuid: (row[def.scope.column] as string | null) ?? undefined };
      case 'systemSelf':
      case 'system': {
        const system_cuid = (def.scope.kind === 'systemSelf' ? row[def.key] : row[def.scope.column]) as string | undefined;
        const company = def.scope.kind === 'systemSelf' ? (row.company_cuid as string) : undefined;
        if (!system_cuid) return { company_cuid: company };
        const [s] = (await manager.query(
          `SELECT s.company_cuid, ${systemSharesSql('s')} AS shares FROM system s WHERE s.system_cuid = $1`,
          [system_cuid],
        )) as { company_cuid: string; shares: { company_cuid: string; change: boolean }[] }[];
        return s ?? { company_cuid: company };
      }
    }
  }

  /** A reference the caller gives (company or system of a new row) must be one they can see. */
  private async assertReferenceVisible(actor: Actor, def: ResourceDefinition, input: Row, manager: EntityManager): Promise<void> {
    const scope = scopeOf(actor);
    if (scope.superuser) return;
    if (def.scope.kind === 'company' || def.scope.kind === 'companyOrGlobal' || def.scope.kind === 'systemSelf') {
      const column = def.scope.kind === 'systemSelf' ? 'company_cuid' : def.scope.column;
      const company = input[column] as string | undefined;
      if (company !== undefined && !scope.companies.includes(company)) throw notFound('Company');
    }
    if (def.scope.kind === 'system') {
      const system = input[def.scope.column] as string | undefined;
      if (system === undefined || system === null) return;
      const p = new Params();
      const [visible] = await manager.query(
        `SELECT 1 FROM system s WHERE s.system_cuid = ${p.add(system)} AND ${visibleSystemSql(scope, p, 's')}`,
        p.values,
      );
      if (!visible) throw notFound('System');
    }
  }

  /** The company that owns a row: its company column, or the owner of its system. */
  private async ownerCompany(def: ResourceDefinition, row: Row, manager: EntityManager): Promise<string | undefined> {
    return (await this.scopeTarget(def, row, manager)).company_cuid;
  }

  /**
   * References that must point at a row of the same company as the record (`sameCompanyReferences`)
   * or of the same system (`sameSystemReferences`); anything else answers NOT_FOUND exactly like a
   * missing id. On an update (`changed` given) the same-system ones are checked when the reference
   * or the record's system changes.
   */
  private async assertSameCompanyReferences(def: ResourceDefinition, row: Row, manager: EntityManager, changed?: readonly string[]): Promise<void> {
    const systemColumn = def.scope.kind === 'system' ? def.scope.column : def.scope.kind === 'systemSelf' ? def.key : undefined;
    for (const ref of def.sameSystemReferences ?? []) await withField(ref.column, async () => {
      const value = row[ref.column];
      if (value === undefined || value === null) return;
      if (changed && !changed.includes(ref.column) && !(systemColumn && changed.includes(systemColumn))) return;
      const [found] = (await manager.query(`SELECT system_cuid FROM ${quote(ref.table)} WHERE ${quote(ref.key)}::text = $1`, [String(value)])) as {
        system_cuid: string | null;
      }[];
      if (!found || !systemColumn || found.system_cuid === null || found.system_cuid !== row[systemColumn]) throw notFound(ref.label);
    });
    let company = row.company_cuid as string | undefined;
    for (const ref of def.sameCompanyReferences ?? []) await withField(ref.column, async () => {
      const value = row[ref.column];
      if (value === undefined || value === null) return;
      if (company === undefined && def.scope.kind === 'system') {
        // Rows that belong to a system take the system's owner company.
        const [s] = (await manager.query(`SELECT company_cuid FROM system WHERE system_cuid = $1`, [row[def.scope.column]])) as {
          company_cuid: string;
        }[];
        company = s?.company_cuid;
      }
      const [found] = (await manager.query(
        `SELECT company_cuid FROM ${quote(ref.table)} WHERE ${quote(ref.key)}::text = $1`,
        [String(value)],
      )) as { company_cuid: string }[];
      if (!found || found.company_cuid !== company) throw notFound(ref.label);
    });
  }

  private async authorize(actor: Actor, def: ResourceDefinition, perm: Permission, row: Row, manager: EntityManager): Promise<void> {
    if (!can(actor, perm, await this.target(def, row, manager))) throw forbidden();
  }

  private serialize(value: unknown): unknown {
    return value !== null && typeof value === 'object' && !(value instanceof Date) ? JSON.stringify(value) : value;
  }

  async create(actor: Actor, def: ResourceDefinition, input: Row) {
    return this.afterWrite(def, () => this.ds.transaction(async (tx) => ({ data: await this.insertOne(actor, def, input, tx) })));
  }

  /** One create inside the caller's transaction: scope, permission and reference checks, insert. */
  private async insertOne(actor: Actor, def: ResourceDefinition, input: Row, tx: EntityManager): Promise<Row> {
    const scopeColumn = def.scope.kind === 'systemSelf' ? 'company_cuid' : def.scope.kind === 'global' ? undefined : def.scope.column;
    await withField(scopeColumn, () => this.assertReferenceVisible(actor, def, input, tx));
    const row: Row = { ...input };
    if (def.generatedKey === true) row[def.key] = newCuid();
    await this.authorize(actor, def, def.perms.create, row, tx);
    await this.assertSameCompanyReferences(def, row, tx);
    await def.beforeWrite?.(tx, actor, row);
    const cols = Object.keys(row).filter((c) => row[c] !== undefined);
    const p = new Params();
    const values = cols.map((c) => p.add(this.serialize(row[c])));
    const [inserted] = (await tx.query(
      cols.length
        ? `INSERT INTO ${quote(def.table)} (${cols.map(quote).join(', ')}) VALUES (${values.join(', ')}) RETURNING ${quote(def.key)} AS key`
        : `INSERT INTO ${quote(def.table)} DEFAULT VALUES RETURNING ${quote(def.key)} AS key`,
      p.values,
    )) as { key: unknown }[];
    await def.afterCreate?.(tx, actor, { ...row, [def.key]: inserted.key });
    // The caller was authorized above; their cookie may not list a company created just now.
    const [created] = await this.loadMany(null, def, [String(inserted.key)], tx);
    if (!created) throw notFound(def.label);
    return this.withId(def, created);
  }

  /**
   * Rows of a CSV file, each coerced and validated like `create` and written in its own SAVEPOINT
   * so a database refusal (a duplicate name …) is reported on its row. `validate` writes nothing,
   * `all` writes every row or none, `validOnly` writes the rows without errors.
   */
  async importMany(actor: Actor, def: ResourceDefinition, rows: Row[], mode: ImportMode): Promise<ImportResult> {
    const errors: ImportError[] = [];
    const ignore = new Set(['id', ...(def.generatedKey === false ? [] : [def.key])]);
    const strict = def.create.strict();
    const parsed: { index: number; value: Row }[] = [];
    rows.forEach((raw, index) => {
      const coerced = coerceRow(def.create, raw, ignore);
      for (const e of coerced.errors) errors.push({ row: index, ...e });
      const bad = new Set(coerced.errors.map((e) => e.field));
      const result = strict.safeParse(coerced.value);
      if (!result.success) {
        for (const issue of result.error.issues) {
          const field = issue.path.length ? String(issue.path[0]) : undefined;
          if (field && bad.has(field)) continue;
          errors.push({ row: index, ...(field ? { field } : {}), message: issue.message });
        }
      } else if (!coerced.errors.length) parsed.push({ index, value: result.data as Row });
    });

    const runner = this.ds.createQueryRunner();
    await runner.connect();
    const ids: string[] = [];
    try {
      await runner.startTransaction();
      const tx = runner.manager;
      for (const { index, value } of parsed) {
        await tx.query('SAVEPOINT import_row');
        try {
          const created = await this.insertOne(actor, def, value, tx);
          await tx.query('RELEASE SAVEPOINT import_row');
          ids.push(String(created.id));
        } catch (error) {
          await tx.query('ROLLBACK TO SAVEPOINT import_row');
          errors.push({ row: index, ...rowError(error) });
        }
      }
      const write = mode === 'validOnly' || (mode === 'all' && errors.length === 0);
      if (write && ids.length) {
        await runner.commitTransaction();
        this.forgetCounts(def);
      } else await runner.rollbackTransaction();
      errors.sort((a, b) => a.row - b.row);
      return write ? { created: ids.length, ids, errors } : { created: 0, ids: [], errors };
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  private async updateOne(actor: Actor, def: ResourceDefinition, id: string, changes: Row, tx: EntityManager): Promise<Row> {
    const [current] = await this.loadMany(actor, def, [id], tx, true);
    if (!current) throw notFound(def.label);
    await this.authorize(actor, def, def.perms.edit, current, tx);
    const next = { ...current, ...changes };
    const moves = Object.keys(changes).filter(
      (c) => changes[c] !== undefined && changes[c] !== current[c] && (c === 'company_cuid' || (def.scope.kind === 'system' && c === def.scope.column)),
    );
    if (moves.length) {
      await this.assertReferenceVisible(actor, def, changes, tx);
      await this.authorize(actor, def, def.perms.edit, next, tx);
      // Moving a record to another system or company is not an edit in place: it needs the owner
      // company of both sides itself (a share, even with change, never moves anything out or in).
      const from = await this.ownerCompany(def, current, tx);
      const to = await this.ownerCompany(def, next, tx);
      if (!can(actor, 'systems.move', { company_cuid: from }) || !can(actor, 'systems.move', { company_cuid: to })) {
        throw forbidden('Only the owner company can move this to another system');
      }
    }
    await this.assertSameCompanyReferences(def, next, tx, Object.keys(changes));
    const cols = Object.keys(changes).filter((c) => changes[c] !== undefined && c !== def.key);
    if (cols.length) await def.beforeWrite?.(tx, actor, next, current);
    if (cols.length) {
      const p = new Params();
      const sets = cols.map((c) => `${quote(c)} = ${p.add(this.serialize(changes[c]))}`);
      await tx.query(`UPDATE ${quote(def.table)} SET ${sets.join(', ')} WHERE ${quote(def.key)}::text = ${p.add(id)}`, p.values);
    }
    const [updated] = await this.loadMany(actor, def, [id], tx);
    return this.withId(def, updated ?? next);
  }

  /**
   * An update guarded by other permissions than `perms.edit` (e.g. configuring a data processor):
   * every one of `perms` must hold against the row, with `def.targetExtra` added to the target.
   */
  async updateWith(actor: Actor, def: ResourceDefinition, id: string, changes: Row, perms: readonly Permission[]) {
    return this.afterWrite(def, () => this.ds.transaction(async (tx) => {
      const [current] = await this.loadMany(actor, def, [id], tx, true);
      if (!current) throw notFound(def.label);
      const target = await this.target(def, current, tx);
      for (const perm of perms) if (!can(actor, perm, target)) throw forbidden();
      await def.beforeWrite?.(tx, actor, { ...current, ...changes }, current);
      const cols = Object.keys(changes).filter((c) => changes[c] !== undefined && c !== def.key);
      if (cols.length) {
        const p = new Params();
        const sets = cols.map((c) => `${quote(c)} = ${p.add(this.serialize(changes[c]))}`);
        await tx.query(`UPDATE ${quote(def.table)} SET ${sets.join(', ')} WHERE ${quote(def.key)}::text = ${p.add(id)}`, p.values);
      }
      const [updated] = await this.loadMany(actor, def, [id], tx);
      return { data: this.withId(def, updated ?? { ...current, ...changes }) };
    }));
  }

  async update(actor: Actor, def: ResourceDefinition, id: string, changes: Row) {
    return this.afterWrite(def, () => this.ds.transaction(async (tx) => ({ data: await this.updateOne(actor, def, id, changes, tx) })));
  }

  /** All or nothing: one id the caller may not change refuses the whole call. */
  async updateMany(actor: Actor, def: ResourceDefinition, ids: string[], changes: Row) {
    return this.afterWrite(def, () => this.ds.transaction(async (tx) => {
      for (const id of [...new Set(ids)]) await this.updateOne(actor, def, id, changes, tx);
      return { data: [...new Set(ids)] };
    }));
  }

  private async deleteOne(actor: Actor, def: ResourceDefinition, id: string, tx: EntityManager): Promise<Row> {
    const [current] = await this.loadMany(actor, def, [id], tx, true);
    if (!current) throw notFound(def.label);
    await this.authorize(actor, def, def.perms.delete, current, tx);
    await def.beforeDelete?.(tx, actor, current);
    await tx.query(`DELETE FROM ${quote(def.table)} WHERE ${quote(def.key)}::text = $1`, [id]);
    return this.withId(def, current);
  }

  async delete(actor: Actor, def: ResourceDefinition, id: string) {
    return this.afterWrite(def, () => this.ds.transaction(async (tx) => ({ data: await this.deleteOne(actor, def, id, tx) })));
  }

  async deleteMany(actor: Actor, def: ResourceDefinition, ids: string[]) {
    return this.afterWrite(def, () => this.ds.transaction(async (tx) => {
      for (const id of [...new Set(ids)]) await this.deleteOne(actor, def, id, tx);
      return { data: [...new Set(ids)] };
    }));
  }
}
