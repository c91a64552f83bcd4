import { TRPCError } from '@trpc/server';
import { type DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { ZodError } from 'zod';
import { toTrpcError } from '../trpc/errors';
import type { Locale } from '../common/locale';
import { translate, translateIssue } from '../common/messages';
import { coerceRow } from './csv-coerce';
import type { ResourceDefinition } from './resource';
import type { Row } from './sql-builder';

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

/** A database refusal we have no words for is still the row's problem, not the server's. */
const rowMessage = (e: TRPCError) => (e.code === 'INTERNAL_SERVER_ERROR' ? 'This row could not be saved' : e.message);

/** What one refused import row tells the user: never SQL, never a stack. */
function rowError(error: unknown, locale: Locale): { field?: string; message: string } {
  if (error instanceof TRPCError && error.cause instanceof ZodError && error.cause.issues.length) {
    const [issue] = error.cause.issues;
    return { ...(issue.path.length ? { field: String(issue.path[0]) } : {}), message: translateIssue(issue, locale) };
  }
  if (error instanceof TRPCError) {
    const field = (error as { field?: string }).field;
    return { ...(field ? { field } : {}), message: translate(error.message, locale) };
  }
  if (error instanceof QueryFailedError) {
    const driver = (error as QueryFailedError & { driverError?: { code?: string; detail?: string; column?: string } }).driverError ?? {};
    // PostgreSQL names the columns in the detail: Key (name)=(x) already exists.
    const columns = /^Key \(([^)]*)\)=/
      .exec(driver.detail ?? '')?.[1]
      ?.split(',')
      .map((c) => c.trim().replace(/^"|"$/g, ''));
    const field = driver.column ?? columns?.[columns.length - 1];
    const message = driver.code === '23505' ? 'already exists' : driver.code === '23503' ? 'not found' : rowMessage(toTrpcError(error));
    return { ...(field ? { field } : {}), message: translate(message, locale) };
  }
  return { message: translate('This row could not be saved', locale) };
}

/**
 * Rows of a CSV file, each coerced and validated like `create` and written by `insertOne` in its
 * own SAVEPOINT so a database refusal (a duplicate name …) is reported on its row. `validate`
 * writes nothing, `all` writes every row or none, `validOnly` writes the rows without errors;
 * `committed` runs once rows were written.
 */
export async function importRows(
  ds: DataSource,
  def: ResourceDefinition,
  rows: Row[],
  mode: ImportMode,
  insertOne: (value: Row, tx: EntityManager) => Promise<Row>,
  committed: () => void,
  known: (ImportError & { covers?: string })[] = [],
  locale: Locale = 'en',
): Promise<ImportResult> {
  const errors: ImportError[] = known.map(({ covers: _covers, ...e }) => ({ ...e, message: translate(e.message, locale) }));
  const refused = new Set(known.map((e) => e.row));
  const covered = new Set(known.filter((e) => e.covers).map((e) => `${e.row}:${e.covers}`));
  const ignore = new Set(['id', ...(def.generatedKey === false ? [] : [def.key])]);
  const strict = def.create.strict();
  const parsed: { index: number; value: Row }[] = [];
  rows.forEach((raw, index) => {
    const coerced = coerceRow(def.create, raw, ignore);
    for (const e of coerced.errors) errors.push({ row: index, ...e, message: translate(e.message, locale) });
    const bad = new Set(coerced.errors.map((e) => e.field));
    const result = strict.safeParse(coerced.value);
    if (!result.success) {
      for (const issue of result.error.issues) {
        const field = issue.path.length ? String(issue.path[0]) : undefined;
        if (field && (bad.has(field) || covered.has(`${index}:${field}`))) continue;
        errors.push({ row: index, ...(field ? { field } : {}), message: translateIssue(issue, locale) });
      }
    } else if (!coerced.errors.length && !refused.has(index)) parsed.push({ index, value: result.data });
  });

  const runner = ds.createQueryRunner();
  await runner.connect();
  const ids: string[] = [];
  try {
    await runner.startTransaction();
    const tx = runner.manager;
    for (const { index, value } of parsed) {
      await tx.query('SAVEPOINT import_row');
      try {
        const created = await insertOne(value, tx);
        await tx.query('RELEASE SAVEPOINT import_row');
        ids.push(String(created.id));
      } catch (error) {
        await tx.query('ROLLBACK TO SAVEPOINT import_row');
        errors.push({ row: index, ...rowError(error, locale) });
      }
    }
    const write = mode === 'validOnly' || (mode === 'all' && errors.length === 0);
    if (write && ids.length) {
      await runner.commitTransaction();
      committed();
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
