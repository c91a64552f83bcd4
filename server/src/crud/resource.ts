import type { z } from 'zod';
import type { EntityManager } from 'typeorm';
import type { Actor, Permission, PolicyTarget } from '../../../shared/access/policy';
import type { Scope } from '../access/scope';
import type { AppConfig } from '../config/config';
import type { SqlParams } from '../database/sql-params';

/**
 * Columns computed per row from other tables (e.g. a system's online state), built once per call:
 * they are record fields, sortable when listed in `sorts`, and may have filters of their own. A list
 * sorted and filtered by plain columns computes them only for the page's rows.
 */
export interface ComputedColumns {
  /** Joins on alias `t` that the columns read (e.g. `CROSS JOIN LATERAL (…) x`); may be ''. */
  joins: string;
  /** Record field → SQL expression (over `t` and the joins). */
  columns: Record<string, string>;
  /** Sort expression of a column when it is not the column itself (e.g. a state by severity). */
  sortExpressions?: Record<string, string>;
  /**
   * Filter name → SQL condition for the filter's value (reading `columns`), or a TRPCError with a
   * field error for a value it cannot take. Values become parameters of `p`.
   */
  filters?: Record<string, (value: unknown, p: SqlParams) => string>;
}

/** How a resource's rows are limited to the caller's companies. */
export type ResourceScope =
  /** Catalogues: the same rows for everybody who holds the view permission. */
  | { kind: 'global' }
  /** Rows that carry the owning company in `column`. */
  | { kind: 'company'; column: string }
  /** Catalogue rows that are global (null `column`) or private to one company. */
  | { kind: 'companyOrGlobal'; column: string }
  /** Rows that belong to a system in `column`: visible with the system (owner or shares). */
  | { kind: 'system'; column: string }
  /** The system table itself. */
  | { kind: 'systemSelf' }
  /**
   * Rows owned by a company or by a system, whichever id `column` holds (no foreign key): visible
   * with that company, or with that system (owner or shares).
   */
  | { kind: 'companyOrSystem'; column: string };

/**
 * One resource of the back office: everything the generic router needs to implement react-admin's
 * nine calls. Column names come from here only, never from the caller's input.
 */
export interface ResourceDefinition<
  TRecord extends z.ZodObject = z.ZodObject,
  TCreate extends z.ZodObject = z.ZodObject,
  TUpdate extends z.ZodObject = z.ZodObject,
> {
  /** Router name (the spec entity in camelCase): `site` → site.getList … */
  name: string;
  /** Human name for messages ("Site not found"). */
  label: string;
  table: string;
  /** Primary key column; it is also exposed as `id`. */
  key: string;
  /** Who makes the key: the server (a CUID2), the database (identity), or the caller (e.g. controller_id). */
  generatedKey: boolean | 'database';
  /** Output record, without `id` (the factory adds it). */
  record: TRecord;
  create: TCreate;
  update: TUpdate;
  /** From access/resources.ts (`...resourceAccess(name)`), with `importable`. */
  perms: { view: Permission; create: Permission; edit: Permission; delete: Permission };
  scope: ResourceScope;
  /** Columns searched by the free-text filter `q` (case-insensitive substring). */
  search: readonly string[];
  /** Columns allowed as equality / list filters (reference filters included). */
  filters: readonly string[];
  sorts: readonly string[];
  defaultSort: { field: string; order: 'ASC' | 'DESC' };
  /**
   * Reference columns that must point at a row of the same company as the record (e.g. a system's
   * site): a foreign or missing reference answers NOT_FOUND.
   */
  sameCompanyReferences?: readonly { column: string; table: string; key: string; label: string }[];
  /**
   * Reference columns that must point at a row (with a `system_cuid`) of the record's own system,
   * e.g. a device's controller: another system's row, even of the same company, answers NOT_FOUND
   * exactly like a missing one.
   */
  sameSystemReferences?: readonly { column: string; table: string; key: string; label: string }[];
  /**
   * SQL condition (on alias `t`) every row of this resource meets, on top of the caller's scope,
   * e.g. devices vs data processors in the one `entity` table. Identifiers only, no input.
   */
  baseWhere?: string;
  /**
   * SQL condition (on alias `t`) that depends on the caller, on top of the caller's scope (e.g. a
   * dashboard made for a role level): built from the caller's scope, values as parameters. The
   * list totals of such a resource are cached per caller.
   */
  callerWhere?: (scope: Scope, p: SqlParams) => string;
  /**
   * Runs in the write transaction before an insert (`current` undefined) or an update, after the
   * permission checks, with the row as it will be: checks that need the database (a template, a
   * type's kind). Throws a TRPCError (NOT_FOUND, BAD_REQUEST with a ZodError cause …).
   */
  beforeWrite?: (tx: EntityManager, actor: Actor, row: Record<string, unknown>, current?: Record<string, unknown>) => Promise<void>;
  /**
   * Runs in the delete transaction after the permission check, with the row locked: refuses a
   * delete that would take other rows with it (e.g. a catalogue entry still in use) with a TRPCError.
   */
  beforeDelete?: (tx: EntityManager, actor: Actor, row: Record<string, unknown>) => Promise<void>;
  /** More of the policy target for a row (e.g. a data processor's entity type kind). */
  targetExtra?: (tx: EntityManager, row: Record<string, unknown>) => Promise<Partial<PolicyTarget>>;
  /**
   * Rows as a caller may read them, after `secrets` (every read: get, list, many): e.g. ids of
   * another company's records inside a JSON column left out (export schedules' recipients).
   */
  present?: (actor: Actor, rows: Record<string, unknown>[], manager: EntityManager) => Promise<Record<string, unknown>[]>;
  /** Runs in the create transaction after the insert (e.g. make the creator a member). */
  afterCreate?: (tx: EntityManager, actor: Actor, row: Record<string, unknown>) => Promise<void>;
  /**
   * Rows can be created from a CSV file: the router gets `<resource>.importMany` (create
   * permission). Said once, by a `csv` entry in access/resources.ts (`resourceAccess`).
   */
  importable?: boolean;
  /** SQL casts for columns that need one when read (e.g. enums → text). */
  selectExpressions?: Record<string, string>;
  /** Computed columns (and their filters), with the call's parameters and the app's settings. */
  computed?: (p: SqlParams, config: AppConfig) => ComputedColumns;
  /**
   * JSON columns that may hold secrets (configuration): read back with every secret key's value
   * masked (common/secret-config.ts) for a caller who lacks `perm` on the row (crud/redact-secrets.ts);
   * `declared`: more secret keys of a row, declared by a schema (e.g. a controller type's command
   * arguments); `memo` lives for one answer, so rows of one owner look it up once. `textColumns`:
   * text masked by maskSecretText (e.g. changelog entries written before secrets were masked).
   */
  secrets?: {
    columns: readonly string[];
    perm: Permission;
    declared?: (manager: EntityManager, row: Record<string, unknown>, memo: Map<string, Promise<unknown>>) => Promise<ReadonlySet<string>>;
    /** Text columns that may quote configuration (`"wifi_psk":"…"`, `+ wifi_psk = …`), for the rows `textRows` picks. */
    textColumns?: readonly string[];
    textRows?: (row: Record<string, unknown>) => boolean;
  };
}
