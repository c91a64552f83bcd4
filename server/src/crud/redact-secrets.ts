import type { EntityManager } from 'typeorm';
import { type Actor, can } from '../../../shared/access/policy';
import { maskSecrets, maskSecretText } from '../common/secret-config';
import { policyTarget } from './policy-target';
import type { ResourceDefinition } from './resource';
import type { Row } from './sql-builder';
import { textOf } from '../../../shared/common/text';

/**
 * Rows of a resource as a caller may read them (then the resource's `present` hook): the secret values of its `secrets.columns`
 * (wifi_psk, passwords, tokens … in a configuration) masked unless the caller has `secrets.perm`
 * on the row (docs/security.md "Secrets stay secret"). One policy target per owner (company or
 * system), not per row.
 */
export async function redactSecrets(actor: Actor, def: ResourceDefinition, rows: Row[], manager: EntityManager): Promise<Row[]> {
  return presentRows(actor, def, await maskSecretColumns(actor, def, rows, manager), manager);
}

/** A row a write answers with (create, update, delete) as the caller may read it: the resource's `present` hook. */
export async function presentRow(actor: Actor, def: ResourceDefinition, row: Row, manager: EntityManager): Promise<Row> {
  return (await presentRows(actor, def, [row], manager))[0];
}

async function presentRows(actor: Actor, def: ResourceDefinition, rows: Row[], manager: EntityManager): Promise<Row[]> {
  return def.present && rows.length ? await def.present(actor, rows, manager) : rows;
}

async function maskSecretColumns(actor: Actor, def: ResourceDefinition, rows: Row[], manager: EntityManager): Promise<Row[]> {
  const secrets = def.secrets;
  if (!secrets || rows.length === 0) return rows;
  const owner = 'column' in def.scope ? def.scope.column : def.key;
  const allowed = new Map<string, boolean>();
  const memo = new Map<string, Promise<unknown>>();
  const out: Row[] = [];
  for (const row of rows) {
    const key = `${textOf(row[owner] ?? '')}\u0000${textOf(row.entitytype_id ?? '')}`;
    let may = allowed.get(key);
    if (may === undefined) {
      may = can(actor, secrets.perm, await policyTarget(def, row, manager));
      allowed.set(key, may);
    }
    if (may) {
      out.push(row);
      continue;
    }
    const declared = secrets.declared ? await secrets.declared(manager, row, memo) : undefined;
    const copy: Row = { ...row };
    for (const c of secrets.columns) if (Object.hasOwn(copy, c)) copy[c] = maskSecrets(copy[c], declared);
    if (secrets.textColumns && (secrets.textRows?.(row) ?? true)) {
      for (const c of secrets.textColumns) if (typeof copy[c] === 'string') copy[c] = maskSecretText(copy[c]);
    }
    out.push(copy);
  }
  return out;
}
