import type { EntityManager } from 'typeorm';
import type { Actor } from '../../../shared/access/policy';
import type { CsvName } from '../../../shared/access/resources';
import { scopeOf } from '../access/scope';
import type { ImportError } from './csv-import';

/** An error found before the rows are checked; `covers`: the column it speaks for as well. */
export type KnownError = ImportError & { covers?: string };
import type { ResourceDefinition } from './resource';
import { visibleByName } from './references.repository';
import type { Row } from './sql-builder';
import { textOf } from '../../../shared/common/text';

/** The messages of a name that does not resolve (the catalogue has them in French). */
export const CSV_NAME_MESSAGES = {
  unknown: '{what} "{name}" not found among those you can see',
  ambiguous: 'Several records of {what} are named "{name}"; give the id in {column} instead',
  mismatch: '{column} and {nameColumn} name different records',
};

const norm = (text: string) => text.trim().toLowerCase();
const filled = (cell: unknown) => cell !== undefined && cell !== null && textOf(cell).trim() !== '';

/**
 * CSV rows whose reference columns are given by name (`company_name` for `company_cuid` …): each
 * name is looked up among the records of the named resource the caller can see (its scope, as its
 * list applies it), case and surrounding spaces aside. One match fills the id column; none, or
 * several, is an error on that row and the name's column, and the row is not written. An id given
 * as well must be the same record. The name columns are removed from the rows.
 */
export async function resolveCsvNames(
  manager: EntityManager,
  actor: Actor,
  rows: Row[],
  names: Readonly<Record<string, CsvName>>,
  definitionOf: (resource: string) => ResourceDefinition | undefined,
): Promise<{ rows: Row[]; errors: KnownError[] }> {
  const errors: KnownError[] = [];
  const out = rows.map((r) => ({ ...r }));
  for (const [column, name] of Object.entries(names)) {
    const wanted = [
      ...new Set(
        out
          .map((r) => r[name.column])
          .filter(filled)
          .map((v) => norm(String(v))),
      ),
    ];
    const def = definitionOf(name.resource);
    if (!def) throw new Error(`CSV names: no resource definition named ${name.resource}`);
    const found = new Map<string, string[]>();
    if (wanted.length) {
      const list = await visibleByName(scopeOf(actor), manager, def, name.match, wanted);
      for (const { n, id } of list) found.set(n, [...(found.get(n) ?? []), id]);
    }
    out.forEach((row, index) => {
      const cell = row[name.column];
      delete row[name.column];
      if (!filled(cell)) return;
      const given = String(cell).trim();
      const ids = found.get(norm(given)) ?? [];
      const what = def.label;
      // The name's error stands for the id column's too ("Required" would say nothing more).
      if (ids.length === 0) errors.push({ row: index, field: name.column, covers: column, message: fillIn(CSV_NAME_MESSAGES.unknown, { what, name: given }) });
      else if (ids.length > 1)
        errors.push({ row: index, field: name.column, covers: column, message: fillIn(CSV_NAME_MESSAGES.ambiguous, { what, name: given, column }) });
      else if (filled(row[column]) && String(row[column]).trim() !== ids[0]) {
        errors.push({ row: index, field: name.column, covers: column, message: fillIn(CSV_NAME_MESSAGES.mismatch, { column, nameColumn: name.column }) });
      } else row[column] = ids[0];
    });
  }
  return { rows: out, errors };
}

const fillIn = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (w, k: string) => values[k] ?? w);
