/**
 * The permission policy of spec §6: the questions asked of the permission table (./permissions.ts,
 * re-exported here). Pure TypeScript importing only that table, so the browser asks exactly the
 * same questions as the server (`authProvider.canAccess`).
 *
 * Role levels: lower is more powerful (0 Superuser, 1 SystemInstaller, 2 Expert, 3 Basic).
 * A superuser (any membership of level 0) always passes, except where a rule says "never"
 * (deleting oneself, changing one's own level-0 role).
 *
 * Each permission has a coarse part, checked before a procedure runs (some membership with level
 * <= N, company admin), and optionally a target rule, checked by the service against the record it
 * touches. Every target rule that names a company, for reads as for writes, asks the level the
 * actor holds *in that company* (or in a company the system is shared with), never the best level
 * anywhere: a Basic member of company A reads nothing of A that needs Expert from being an Expert
 * in company B. Lists keep to the companies where the level suffices (`actorAt`). Only records of
 * no company (catalogues, dashboards, the role list) are judged by the coarse part alone.
 */

import { type Permission, type PermissionRule, POLICY, ROLE_LEVEL } from './permissions';

export { isPermission, type Permission, PERMISSIONS, type PermissionRule, POLICY, ROLE_LEVEL, type RoleLevel, type TargetRule } from './permissions';

export interface PolicyMembership {
  company_cuid: string;
  level: number;
  is_company_admin: boolean;
}

export interface Actor {
  user_cuid: string;
  memberships: readonly PolicyMembership[];
}

/** What a target rule looks at. Services fill in the fields their rule reads. */
export interface PolicyTarget {
  /** The company that owns the record (system, site, controller, token …). */
  company_cuid?: string;
  /** The user a user or membership record belongs to. */
  user_cuid?: string;
  /** Companies the target user belongs to (user view rules). */
  user_company_cuids?: readonly string[];
  /** Every membership of the target user, with its level (user edit / deactivate rules). */
  user_memberships?: readonly { company_cuid: string; level: number }[];
  /** Current role level of the membership being edited. */
  membership_level?: number;
  /** Companies a system is shared with, and whether each share allows change. */
  shares?: readonly { company_cuid: string; change: boolean }[];
  /** Entity type kind of a data processor (CalculatedValue needs level 0 to configure). */
  entity_type_kind?: string;
}

/** The policy's view of a session context (spec §3.1): who, and their memberships' levels. */
export function actorFromContext(ctx: {
  user: { user_cuid: string };
  memberships: readonly { company_cuid: string; is_company_admin: boolean; role: { level: number } }[];
}): Actor {
  return {
    user_cuid: ctx.user.user_cuid,
    memberships: ctx.memberships.map((m) => ({ company_cuid: m.company_cuid, level: m.role.level, is_company_admin: m.is_company_admin })),
  };
}

export function isSuperUser(actor: Actor): boolean {
  return actor.memberships.some((m) => m.level === ROLE_LEVEL.Superuser);
}

/** The most powerful level the actor holds anywhere (Infinity without memberships). */
export function bestLevel(actor: Actor): number {
  return actor.memberships.reduce((best, m) => Math.min(best, m.level), Number.POSITIVE_INFINITY);
}

/** The most powerful level the actor holds in one company (Infinity when not a member). */
export function levelIn(actor: Actor, company_cuid: string | undefined): number {
  if (!company_cuid) return Number.POSITIVE_INFINITY;
  return actor.memberships.filter((m) => m.company_cuid === company_cuid).reduce((best, m) => Math.min(best, m.level), Number.POSITIVE_INFINITY);
}

/**
 * The actor as a permission needing `level` sees them: only their memberships of that level or more
 * powerful (a superuser keeps everything). Lists and scopes of a read use it, so a company where the
 * actor's level is too low contributes no row, whatever they hold elsewhere.
 */
export function actorAt(actor: Actor, level: number): Actor {
  if (isSuperUser(actor)) return actor;
  const memberships = actor.memberships.filter((m) => m.level <= level);
  return memberships.length === actor.memberships.length ? actor : { user_cuid: actor.user_cuid, memberships };
}

/** `actorAt` for the level a permission needs. */
export function actorFor(actor: Actor, permission: Permission): Actor {
  return actorAt(actor, POLICY[permission].level);
}

/**
 * The actor inside one company: their memberships there (a superuser keeps everything). The
 * browser asks the policy with it about a record shown, so a button follows the level held in the
 * record's company, like the server.
 */
export function actorIn(actor: Actor, company_cuid: string): Actor {
  if (isSuperUser(actor)) return actor;
  return { user_cuid: actor.user_cuid, memberships: actor.memberships.filter((m) => m.company_cuid === company_cuid) };
}

/** The needed level in the owner company, or in a company the system is shared with (`changeOnly`: with change). */
function levelOnSystem(actor: Actor, level: number, target: PolicyTarget, changeOnly: boolean): boolean {
  return (
    levelIn(actor, target.company_cuid) <= level || (target.shares ?? []).some((s) => (s.change || !changeOnly) && levelIn(actor, s.company_cuid) <= level)
  );
}

export function isAdminOf(actor: Actor, company_cuid: string | undefined): boolean {
  return !!company_cuid && actor.memberships.some((m) => m.company_cuid === company_cuid && m.is_company_admin);
}

export function isAdminAnywhere(actor: Actor): boolean {
  return actor.memberships.some((m) => m.is_company_admin);
}

export function isMemberOf(actor: Actor, company_cuid: string | undefined): boolean {
  return !!company_cuid && actor.memberships.some((m) => m.company_cuid === company_cuid);
}

/**
 * Product rule beside §6 (no takeover): outside superusers, nobody grants, changes or removes a
 * role more powerful than the one they hold in that company.
 */
export function mayHandleLevel(actor: Actor, company_cuid: string | undefined, level: number): boolean {
  return isSuperUser(actor) || level >= levelIn(actor, company_cuid);
}

/**
 * Product rule beside §6 (no takeover across companies): changing another user's account (email,
 * password, name, phone) or deactivating them needs a superuser, or an actor who is company admin
 * in *every* company the target belongs to and holds there a level at least as powerful as the
 * target's (actor's level <= target's level in that company). Only a superuser touches a
 * superuser, and a user of no company is a superuser's only. Being admin of one company the
 * target shares with you gives no power over what the target holds elsewhere.
 */
export function mayManageUser(actor: Actor, target: { user_cuid?: string; user_memberships?: readonly { company_cuid: string; level: number }[] }): boolean {
  if (target.user_cuid !== undefined && target.user_cuid === actor.user_cuid && actor.memberships.length > 0) return true;
  if (isSuperUser(actor)) return true;
  const memberships = target.user_memberships ?? [];
  if (memberships.length === 0) return false;
  if (memberships.some((m) => m.level === ROLE_LEVEL.Superuser)) return false;
  return memberships.every((m) => isAdminOf(actor, m.company_cuid) && levelIn(actor, m.company_cuid) <= m.level);
}

/**
 * A changelog entry: the needed level in the owner company of its system, or its author while
 * they hold that level in a company the system is shared with for change. A read-only share never
 * edits or deletes an entry, not even one's own.
 */
export function mayChangeChangelogEntry(actor: Actor, level: number, target: PolicyTarget): boolean {
  if (isSuperUser(actor)) return true;
  if (levelIn(actor, target.company_cuid) <= level) return true;
  if (target.user_cuid === undefined || target.user_cuid !== actor.user_cuid) return false;
  return levelOnSystem(actor, level, target, true);
}

/**
 * Spec §6 tenancy, for one system already loaded with its owner and shares (the SQL form of the
 * same rule is server/src/tenancy/visibility.ts): a superuser, a member of the owner company, or a
 * member of a company the system is shared with (with or without change) sees it.
 */
export function seesSystem(actor: Actor, system: { company_cuid: string; shares?: readonly { company_cuid: string; change: boolean }[] }): boolean {
  return isSuperUser(actor) || isMemberOf(actor, system.company_cuid) || (system.shares ?? []).some((sh) => isMemberOf(actor, sh.company_cuid));
}

/**
 * Product rule beside §6 (sign-in not given away): changing one's own password, or one's own email
 * to another address, needs the current password; a change to another user's account does not
 * (`mayManageUser` decides it). `current.email` is the account's email before the change.
 */
export function needsCurrentPassword(actor: Actor, target: { user_cuid: string; email: string }, changes: { password?: unknown; email?: string }): boolean {
  if (target.user_cuid !== actor.user_cuid) return false;
  return changes.password !== undefined || (changes.email !== undefined && changes.email !== target.email);
}

/** Hosted files: brand assets (of a root domain or domain) are uploaded with admin actions (level 0). */
export function mayUploadBrandAsset(actor: Actor): boolean {
  return can(actor, 'admin.actions');
}

/** Hosted files, coarse check before the upload is read: a file (level 2 somewhere) or a brand asset. */
export function mayStartUpload(actor: Actor): boolean {
  return canUse(actor, 'files.upload') || canUse(actor, 'admin.actions');
}

/**
 * Hosted files of a system: the company a file goes to when the upload names none. A superuser or
 * a member of the owner company files it under the owner; a member of a company the system is
 * shared with for changes, under that company; otherwise none (a read-only share uploads nothing).
 */
export function uploadCompanyOfSystem(
  actor: Actor,
  system: { company_cuid: string; shares: readonly { company_cuid: string; change: boolean }[] },
): string | null {
  if (isSuperUser(actor) || isMemberOf(actor, system.company_cuid)) return system.company_cuid;
  return system.shares.find((sh) => sh.change && isMemberOf(actor, sh.company_cuid))?.company_cuid ?? null;
}

/** Hosted files of a system belong to its owner company or to a company it is shared with for changes. */
export function fileMayBelongTo(system: { company_cuid: string; shares: readonly { company_cuid: string; change: boolean }[] }, company_cuid: string): boolean {
  return company_cuid === system.company_cuid || system.shares.some((sh) => sh.company_cuid === company_cuid && sh.change);
}

/** Coarse check: may the actor use this permission at all (before any record is known)? */
export function canUse(actor: Actor, permission: Permission): boolean {
  const r: PermissionRule = POLICY[permission];
  if (actor.memberships.length === 0) return false;
  if (isSuperUser(actor)) return true;
  if (bestLevel(actor) > r.level) return false;
  if (r.admin && !isAdminAnywhere(actor)) return false;
  return true;
}

function targetAllows(actor: Actor, r: PermissionRule, target: PolicyTarget): boolean {
  const superuser = isSuperUser(actor);
  switch (r.target) {
    case undefined:
      return true;
    case 'selfOrSharedAdmin':
      return superuser || target.user_cuid === actor.user_cuid || (target.user_company_cuids ?? []).some((c) => isAdminOf(actor, c));
    case 'manageUser':
      return mayManageUser(actor, target);
    case 'changelogEntry':
      return mayChangeChangelogEntry(actor, r.level, target);
    case 'notSelf':
      return target.user_cuid !== undefined && target.user_cuid !== actor.user_cuid;
    case 'companyAdmin':
      return superuser || isAdminOf(actor, target.company_cuid);
    case 'membershipEdit': {
      const own = target.user_cuid === actor.user_cuid;
      if (superuser) return !(own && target.membership_level === ROLE_LEVEL.Superuser);
      const ofSuperuser = (target.user_memberships ?? []).some((m) => m.level === ROLE_LEVEL.Superuser);
      return !own && !ofSuperuser && isAdminOf(actor, target.company_cuid);
    }
    case 'systemRead':
      return superuser || levelOnSystem(actor, r.level, target, false);
    case 'systemWrite':
      return superuser || levelOnSystem(actor, r.level, target, true);
    case 'companyMember':
    case 'companyLevel':
      return superuser || levelIn(actor, target.company_cuid) <= r.level;
    case 'processorKind':
      return superuser || (target.entity_type_kind !== 'CalculatedValue' && levelOnSystem(actor, r.level, target, true));
  }
}

/**
 * Full check: the coarse part, then the target rule against the record. Without a target only
 * the coarse part is asked (what the UI uses to show or hide a menu entry).
 */
export function can(actor: Actor, permission: Permission, target?: PolicyTarget): boolean {
  const r: PermissionRule = POLICY[permission];
  // "Never" rules bind superusers too, so they are asked before the superuser shortcut.
  if (target && r.target === 'notSelf' && !targetAllows(actor, r, target)) return false;
  if (target && r.target === 'membershipEdit' && isSuperUser(actor) && !targetAllows(actor, r, target)) return false;
  if ((r.target === 'selfOrSharedAdmin' || r.target === 'manageUser') && target && target.user_cuid === actor.user_cuid && actor.memberships.length > 0) {
    return true;
  }
  if (!canUse(actor, permission)) return false;
  return target ? targetAllows(actor, r, target) : true;
}
