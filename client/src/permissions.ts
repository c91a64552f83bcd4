import { type Actor, actorFromContext, actorIn, can, isMemberOf, type Permission } from '../../shared/access/policy';
import { RESOURCE_ACCESS, type ResourceAccess } from '../../shared/access/resources';
import type { TSessionContext } from './session/auth-api';
import { ownEntry } from '../../shared/common/own-entry';

/**
 * react-admin resource + action → the permission of spec §6 (shared/access/policy.ts) that
 * answers `authProvider.canAccess`. Resource names are tRPC router names (`system` →
 * `system.getList`); the table is the server's (server/src/access/resources.ts): the procedures'
 * permissions (`perms`, which the generated routers enforce) with the questions only pages ask
 * (`pages`) over them, so the menu and the buttons ask exactly what the server enforces.
 *
 * Actions: react-admin's list, show, create, edit, delete, export and clone; `read` (field-level
 * checks on "resource.field") counts as show; any other action a page asks for must be listed
 * there. Unknown resources and actions are refused (fail closed). Only the coarse part of a rule
 * is asked (level, company admin): rules about one record are the server's to check.
 */
export const RESOURCE_PERMISSIONS: Record<string, Partial<Record<string, Permission>>> = Object.fromEntries(
  Object.entries(RESOURCE_ACCESS as Record<string, ResourceAccess>).map(([name, entry]) => [name, { ...entry.perms, ...entry.pages }]),
);

/** Actions that mean the same permission as another. */
const ACTION_ALIASES: Record<string, string> = { read: 'show', export: 'list', clone: 'create' };

/** The permission for a react-admin access question; undefined = unknown, refused. */
export function permissionFor(resource: string, action: string): Permission | undefined {
  // Field-level questions come as "resource.field".
  const base = resource.includes('.') ? resource.slice(0, resource.indexOf('.')) : resource;
  const table = ownEntry(RESOURCE_PERMISSIONS, base);
  if (!table) return undefined;
  const key = ownEntry(ACTION_ALIASES, action) ?? action;
  return ownEntry(table, key) ?? (key === 'list' ? ownEntry(table, 'show') : key === 'show' ? ownEntry(table, 'list') : undefined);
}

/** The policy's view of the signed-in user. */
export const actorOf = (context: TSessionContext): Actor => actorFromContext(context);

/**
 * `authProvider.canAccess`: the coarse part of the permission's rule, asked with the level the user
 * holds in the company of the record shown (its `company_cuid`) when they are a member of it, as the
 * server judges a record by its own company, never by the best level anywhere. Without a record, or
 * for a record seen through a share (the shares are the server's to check), the coarse question.
 */
export function canAccessWith(actor: Actor, permission: Permission, record?: unknown): boolean {
  const company =
    record !== null && typeof record === 'object' && Object.hasOwn(record, 'company_cuid') ? (record as { company_cuid: unknown }).company_cuid : undefined;
  if (typeof company === 'string' && isMemberOf(actor, company)) return can(actorIn(actor, company), permission);
  return can(actor, permission);
}
