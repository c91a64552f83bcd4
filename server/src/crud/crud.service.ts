import { Inject, Injectable, Optional } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import type { DataSource, EntityManager } from 'typeorm';
import { type Actor, actorFor, can, type Permission } from '../../../shared/access/policy';
import { forbidden, notFound } from '../common/errors';
import { newCuid } from '../common/ids';
import { scopeOf } from '../access/scope';
import { AppConfig } from '../config/config';
import { DATA_SOURCE } from '../database/database.module';
import { SharedSignals, SIGNAL_TOPICS } from '../database/shared-signals';
import { CountCache } from './count-cache';
import type { TGetListParams } from './crud.schema';
import { importRows, type ImportMode, type ImportResult } from './csv-import';
import { withField } from '../common/field-error';
import { resolveCsvNames } from './csv-names';
import { csvImportOf } from '../../../shared/access/resources';
import { type Dependent, dependentsMessage, dependentsOf } from './dependents';
import type { Locale } from '../common/locale';
import { translate } from '../common/messages';
import { presentRow, redactSecrets } from './redact-secrets';
import { assertReferenceVisible, assertSameCompanyReferences, ownerCompany, policyTarget } from './policy-target';
import type { ResourceDefinition } from './resource';
import type { Row } from './sql-builder';
import { CrudRepository } from './crud.repository';

export type { ImportError, ImportMode, ImportResult } from './csv-import';

/**
 * react-admin's nine data-provider calls over any resource definition, with the caller's
 * companies in every `where`. Identifiers come from the definition only; values are parameters.
 */
@Injectable()
export class CrudService {
  /** List totals, dropped when this service writes to a table (see CountCache). */
  private readonly counts = new CountCache();

  /** Every statement of the generic CRUD (crud.repository.ts). */
  private readonly rows: CrudRepository;

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly config: AppConfig,
    @Optional() private readonly signals?: SharedSignals,
  ) {
    this.rows = new CrudRepository(ds, this.config);
    // Another instance wrote to a table (or the signal connection was lost: null drops them all).
    signals?.on(SIGNAL_TOPICS.table, (table) => (table === null ? this.counts.forgetAll() : this.counts.forgetTable(table)));
  }

  private withId(def: ResourceDefinition, row: Row): Row {
    return { ...row, id: String(row[def.key]) };
  }

  async getList(caller: Actor, def: ResourceDefinition, params: TGetListParams, extra?: { target: string; id: string }) {
    // Only the companies where the caller's level allows the view contribute rows.
    const actor = actorFor(caller, def.perms.view);
    const scope = scopeOf(actor);
    const sort = params.sort ?? def.defaultSort;
    const sortField = sort.field === 'id' ? def.key : sort.field;
    if (sortField !== def.key && !def.sorts.includes(sortField)) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: `Cannot sort by ${sort.field}` });
    }
    // The page's statement is built (and a bad filter refused) before any statement is sent.
    const page = this.rows.listPage(scope, def, params, sortField, sort.order, extra);
    const [rows, total] = await Promise.all([page, this.count(def, actor, params.filter, extra)]);
    return { data: (await redactSecrets(actor, def, rows, this.ds.manager)).map((r) => this.withId(def, r)), total };
  }

  /** How many rows a list has, cached per (resource, caller's companies, filter). */
  private count(def: ResourceDefinition, actor: Actor, filter: Record<string, unknown>, extra?: { target: string; id: string }): Promise<number> {
    const scope = scopeOf(actor);
    const who = scope.superuser || def.scope.kind === 'global' ? '*' : def.callerWhere ? `user:${scope.user_cuid}` : [...scope.companies].sort();
    const key = CountCache.key(def.table, def.name, who, filter, extra ?? null);
    return this.counts.get(key, () => this.rows.count(scope, def, filter, extra));
  }

  /**
   * Runs a write and, once it is committed (or failed), drops the table's cached counts here and
   * signals the table to the other instances (their counts, and any cache built on that table).
   */
  private async afterWrite<T>(def: ResourceDefinition, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      await this.forgetCounts(def);
    }
  }

  /** A write to a table makes its cached counts (and other caches of it, on every instance) stale. */
  private async forgetCounts(def: ResourceDefinition): Promise<void> {
    this.counts.forgetTable(def.table);
    await this.signals?.publish(SIGNAL_TOPICS.table, def.table);
  }

  /**
   * Writes made outside this service that change what callers see (a new share makes a whole
   * system visible to another company) drop every cached count.
   */
  forgetAllCounts(): void {
    this.counts.forgetAll();
    // Every instance (a share changes what a whole company sees); a failed notice is only logged.
    void this.signals?.publish(SIGNAL_TOPICS.table, null);
  }

  /** Rows by key within the caller's scope (`actor` null: unscoped, for a row just created). */
  private loadMany(actor: Actor | null, def: ResourceDefinition, ids: string[], manager: EntityManager = this.ds.manager, lock = false): Promise<Row[]> {
    return this.rows.byKeys(actor ? scopeOf(actor) : null, def, ids, manager, lock);
  }

  /**
   * Rows the caller may read: `def.perms.view` at the level they hold in the row's company (or a
   * company its system is shared with). `all`: every id must be readable; one seen only through a
   * company where that level is lacking answers FORBIDDEN, an unseen one NOT_FOUND.
   */
  private async readable(actor: Actor, def: ResourceDefinition, ids: string[], all: boolean): Promise<Row[]> {
    const viewer = actorFor(actor, def.perms.view);
    const rows = await this.loadMany(viewer, def, ids);
    if (!all || rows.length === ids.length) return rows;
    if (viewer !== actor && (await this.loadMany(actor, def, ids)).length === ids.length) throw forbidden();
    throw notFound(def.label);
  }

  async getOne(actor: Actor, def: ResourceDefinition, id: string) {
    const [row] = await this.readable(actor, def, [id], true);
    return { data: this.withId(def, (await redactSecrets(actor, def, [row], this.ds.manager))[0]) };
  }

  async getMany(actor: Actor, def: ResourceDefinition, ids: string[]) {
    const rows = await this.readable(actor, def, [...new Set(ids)], false);
    return { data: (await redactSecrets(actor, def, rows, this.ds.manager)).map((r) => this.withId(def, r)) };
  }

  /** Per visible record: may the caller edit it, delete it (the same checks update/delete make)? */
  async access(actor: Actor, def: ResourceDefinition, ids: string[]) {
    const rows = await this.readable(actor, def, [...new Set(ids)], false);
    const data: Record<string, { edit: boolean; delete: boolean }> = {};
    for (const row of rows) {
      const target = await policyTarget(def, row, this.ds.manager);
      data[String(row[def.key])] = { edit: can(actor, def.perms.edit, target), delete: can(actor, def.perms.delete, target) };
    }
    return { data };
  }

  /**
   * What deleting these records would do to the rows that depend on them (see dependents.ts), and the
   * sentence the delete confirmation shows, in `locale`. Every id must be the caller's (a foreign or
   * unknown one answers NOT_FOUND); the details go only to a caller who may delete every record
   * (a global catalogue entry's users in other companies are nobody else's business).
   */
  async dependents(
    actor: Actor,
    def: ResourceDefinition,
    ids: string[],
    locale: Locale,
  ): Promise<{ data: { deletable: boolean; blocked: boolean; dependents: Dependent[]; message: string } }> {
    const wanted = [...new Set(ids)];
    const rows = await this.readable(actor, def, wanted, true);
    for (const row of rows) {
      if (!can(actor, def.perms.delete, await policyTarget(def, row, this.ds.manager))) {
        return { data: { deletable: false, blocked: false, dependents: [], message: translate('You do not have permission to do this', locale) } };
      }
    }
    const keys = rows.map((r) => String(r[def.key]));
    const dependents = await dependentsOf(this.ds.manager, def.table, def.key, keys, locale);
    return {
      data: {
        deletable: true,
        blocked: dependents.some((d) => d.action === 'block'),
        dependents,
        message: dependentsMessage(dependents, keys.length > 1, locale),
      },
    };
  }

  private async authorize(actor: Actor, def: ResourceDefinition, perm: Permission, row: Row, manager: EntityManager): Promise<void> {
    if (!can(actor, perm, await policyTarget(def, row, manager))) throw forbidden();
  }

  async create(actor: Actor, def: ResourceDefinition, input: Row) {
    return this.afterWrite(def, () => this.ds.transaction(async (tx) => ({ data: await this.insertOne(actor, def, input, tx) })));
  }

  /** One create inside the caller's transaction: scope, permission and reference checks, insert. */
  private async insertOne(actor: Actor, def: ResourceDefinition, input: Row, tx: EntityManager): Promise<Row> {
    const scopeColumn = def.scope.kind === 'systemSelf' ? 'company_cuid' : def.scope.kind === 'global' ? undefined : def.scope.column;
    await withField(scopeColumn, () => assertReferenceVisible(actor, def, input, tx));
    const row: Row = { ...input };
    if (def.generatedKey === true) row[def.key] = newCuid();
    await this.authorize(actor, def, def.perms.create, row, tx);
    await assertSameCompanyReferences(def, row, tx);
    await def.beforeWrite?.(tx, actor, row);
    const key = await this.rows.insert(tx, def, row);
    await def.afterCreate?.(tx, actor, { ...row, [def.key]: key });
    // The caller was authorized above; their cookie may not list a company created just now.
    const [created] = await this.loadMany(null, def, [String(key)], tx);
    if (!created) throw notFound(def.label);
    return this.withId(def, await presentRow(actor, def, created, tx));
  }

  /**
   * Rows of a CSV file, each coerced and validated like `create` and written in its own SAVEPOINT
   * so a database refusal (a duplicate name …) is reported on its row. `validate` writes nothing,
   * `all` writes every row or none, `validOnly` writes the rows without errors.
   */
  /** Resource definitions by router name (CSV names look them up). */
  private readonly definitions = new Map<string, ResourceDefinition>();

  /** Makes a definition known by its router name (the app registers its back-office resources: api/trpc.module.ts). */
  register(def: ResourceDefinition): void {
    if (!this.definitions.has(def.name)) this.definitions.set(def.name, def);
  }

  definition(name: string): ResourceDefinition | undefined {
    return this.definitions.get(name);
  }

  /**
   * Rows of a CSV file created like `create` (see csv-import.ts); reference columns may be given
   * by name (csv-names.ts, the resource's `csv.names` in access/resources.ts). Messages in `locale`.
   */
  async importMany(actor: Actor, def: ResourceDefinition, rows: Row[], mode: ImportMode, locale: Locale = 'en'): Promise<ImportResult> {
    const names = csvImportOf(def.name)?.names;
    const resolved = names ? await resolveCsvNames(this.ds.manager, actor, rows, names, (n) => this.definition(n)) : { rows, errors: [] };
    return importRows(
      this.ds,
      def,
      resolved.rows,
      mode,
      (value, tx) => this.insertOne(actor, def, value, tx),
      () => void this.forgetCounts(def),
      resolved.errors,
      locale,
    );
  }

  private async updateOne(actor: Actor, def: ResourceDefinition, id: string, changes: Row, tx: EntityManager): Promise<Row> {
    const [current] = await this.loadMany(actor, def, [id], tx, true);
    if (!current) throw notFound(def.label);
    await this.authorize(actor, def, def.perms.edit, current, tx);
    const next = { ...current, ...changes };
    const moves = Object.keys(changes).filter(
      (c) =>
        changes[c] !== undefined &&
        changes[c] !== current[c] &&
        (c === 'company_cuid' || ((def.scope.kind === 'system' || def.scope.kind === 'companyOrSystem') && c === def.scope.column)),
    );
    if (moves.length) {
      await assertReferenceVisible(actor, def, changes, tx);
      await this.authorize(actor, def, def.perms.edit, next, tx);
      // Moving a record to another system or company is not an edit in place: it needs the owner
      // company of both sides itself (a share, even with change, never moves anything out or in).
      const from = await ownerCompany(def, current, tx);
      const to = await ownerCompany(def, next, tx);
      if (!can(actor, 'systems.move', { company_cuid: from }) || !can(actor, 'systems.move', { company_cuid: to })) {
        throw forbidden('Only the owner company can move this to another system');
      }
    }
    await assertSameCompanyReferences(def, next, tx, Object.keys(changes));
    const cols = Object.keys(changes).filter((c) => changes[c] !== undefined && c !== def.key);
    if (cols.length) await def.beforeWrite?.(tx, actor, next, current);
    if (cols.length) {
      await this.rows.update(tx, def, id, changes, cols);
    }
    const [updated] = await this.loadMany(actor, def, [id], tx);
    return this.withId(def, await presentRow(actor, def, updated ?? next, tx));
  }

  /**
   * An update guarded by other permissions than `perms.edit` (e.g. configuring a data processor):
   * every one of `perms` must hold against the row, with `def.targetExtra` added to the target.
   */
  async updateWith(actor: Actor, def: ResourceDefinition, id: string, changes: Row, perms: readonly Permission[]) {
    return this.afterWrite(def, () =>
      this.ds.transaction(async (tx) => {
        const [current] = await this.loadMany(actor, def, [id], tx, true);
        if (!current) throw notFound(def.label);
        const target = await policyTarget(def, current, tx);
        for (const perm of perms) if (!can(actor, perm, target)) throw forbidden();
        await def.beforeWrite?.(tx, actor, { ...current, ...changes }, current);
        const cols = Object.keys(changes).filter((c) => changes[c] !== undefined && c !== def.key);
        if (cols.length) {
          await this.rows.update(tx, def, id, changes, cols);
        }
        const [updated] = await this.loadMany(actor, def, [id], tx);
        return { data: this.withId(def, await presentRow(actor, def, updated ?? { ...current, ...changes }, tx)) };
      }),
    );
  }

  async update(actor: Actor, def: ResourceDefinition, id: string, changes: Row) {
    return this.afterWrite(def, () => this.ds.transaction(async (tx) => ({ data: await this.updateOne(actor, def, id, changes, tx) })));
  }

  /** All or nothing: one id the caller may not change refuses the whole call. */
  async updateMany(actor: Actor, def: ResourceDefinition, ids: string[], changes: Row) {
    return this.afterWrite(def, () =>
      this.ds.transaction(async (tx) => {
        for (const id of [...new Set(ids)]) await this.updateOne(actor, def, id, changes, tx);
        return { data: [...new Set(ids)] };
      }),
    );
  }

  private async deleteOne(actor: Actor, def: ResourceDefinition, id: string, tx: EntityManager): Promise<Row> {
    const [current] = await this.loadMany(actor, def, [id], tx, true);
    if (!current) throw notFound(def.label);
    await this.authorize(actor, def, def.perms.delete, current, tx);
    await def.beforeDelete?.(tx, actor, current);
    await this.rows.delete(tx, def, id);
    return this.withId(def, await presentRow(actor, def, current, tx));
  }

  async delete(actor: Actor, def: ResourceDefinition, id: string) {
    return this.afterWrite(def, () => this.ds.transaction(async (tx) => ({ data: await this.deleteOne(actor, def, id, tx) })));
  }

  async deleteMany(actor: Actor, def: ResourceDefinition, ids: string[]) {
    return this.afterWrite(def, () =>
      this.ds.transaction(async (tx) => {
        for (const id of [...new Set(ids)]) await this.deleteOne(actor, def, id, tx);
        return { data: [...new Set(ids)] };
      }),
    );
  }
}
