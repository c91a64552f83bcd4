/**
 * The permission policy of spec §6, as data. Pure TypeScript with no imports, so the browser
 * asks exactly the same questions as the server (`authProvider.canAccess`).
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

export const ROLE_LEVEL = { Superuser: 0, SystemInstaller: 1, Expert: 2, Basic: 3 } as const;
export type RoleLevel = 0 | 1 | 2 | 3;

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

export type TargetRule =
  /** The actor themselves, a superuser, or an admin of a company the target user belongs to. */
  | 'selfOrSharedAdmin'
  /**
   * Another user's account (email, password, name, phone, inactive): see `mayManageUser`. The
   * user themselves always passes.
   */
  | 'manageUser'
  /** Never oneself (superusers included). */
  | 'notSelf'
  /** Admin of the target company. */
  | 'companyAdmin'
  /** Admin of the membership's company, never one's own membership, never a superuser's (any
   *  membership of `user_memberships` at level 0); a superuser edits anyone except their own
   *  membership while it carries a level-0 role. */
  | 'membershipEdit'
  /**
   * The needed level in the owning company or in a company the system is shared with (with or
   * without change); for level 3, any member of them.
   */
  | 'systemRead'
  /** The needed level in the owning company, or in a company holding a share with `change`. */
  | 'systemWrite'
  /** The needed level in the target company (for level 3, any member of it). */
  | 'companyMember'
  /** The needed level in the target company (for a system: its owner company itself; shares give nothing). */
  | 'companyLevel'
  /**
   * A changelog entry (`user_cuid` its author): the needed level in the system's owner company, or
   * its author while they still see the system through the owner company or a share with change
   * (never through a read-only share).
   */
  | 'changelogEntry'
  /**
   * Level 0 for CalculatedValue processors, otherwise the permission's level in the owner company of
   * the processor's system or in a company it is shared with for change.
   */
  | 'processorKind';

export interface PermissionRule {
  /** Needed level (any membership with level <= this). */
  level: RoleLevel;
  /** Also needs company admin on some membership. */
  admin?: boolean;
  /** Rule applied against the record touched. */
  target?: TargetRule;
  /** Where in spec §6 this comes from, for the reader and the snapshot. */
  spec: string;
}

const rule = (level: RoleLevel, spec: string, extra: Partial<PermissionRule> = {}): PermissionRule => ({
  level,
  spec,
  ...extra,
});

/** Spec §6, one line per permission. */
export const POLICY = {
  // Session and identity: every signed-in user reads their own context and the role list.
  'session.self': rule(3, 'own session context; others need users.view', { target: 'selfOrSharedAdmin' }),
  'roles.view': rule(3, 'role list (used by every client about 1 s after start)'),

  // Users
  'users.view': rule(3, 'Users: view needs company admin on any membership', { admin: true }),
  'users.create': rule(3, 'Users: created by a company admin into their company', { admin: true, target: 'companyAdmin' }),
  'users.edit': rule(
    3,
    'Users: edit single: superuser, the user themselves, or an admin of every company the user belongs to, at least as powerful there; only a superuser touches a superuser',
    { target: 'manageUser' },
  ),
  'users.deactivate': rule(
    3,
    'Users: deactivate single: superuser, the user themselves, or an admin of every company the user belongs to, at least as powerful there; only a superuser touches a superuser',
    { target: 'manageUser' },
  ),
  'users.deleteAny': rule(0, 'Users: delete any needs level 0'),
  'users.delete': rule(0, 'Users: delete single is for a superuser and never for oneself', { target: 'notSelf' }),

  // Companies and memberships
  'companies.view': rule(3, 'Companies: view needs admin', { admin: true }),
  'companies.create': rule(3, 'Companies: create needs admin', { admin: true }),
  'companies.edit': rule(3, 'Companies: edit single needs admin of that company', { admin: true, target: 'companyAdmin' }),
  'companies.delete': rule(0, 'Companies: delete needs level 0'),
  'memberships.edit': rule(3, 'Membership edit: admin of the company edits others, not themselves; superuser anyone but not their own level-0 role', {
    admin: true,
    target: 'membershipEdit',
  }),

  // Systems
  'systems.view': rule(3, 'Systems: members of the owner company and of companies it is shared with', { target: 'systemRead' }),
  'systems.create': rule(1, 'Systems: create needs level 1 in the owner company', { target: 'companyLevel' }),
  'systems.edit': rule(1, 'Systems: edit needs level 1 and the owner company; shared systems need the change flag', { target: 'systemWrite' }),
  'systems.delete': rule(1, 'Systems: delete needs level 1 in the owner company itself; a share, even with change, never deletes the system', {
    target: 'companyLevel',
  }),
  'systems.move': rule(
    1,
    'Moving a device, controller or other record of a system to another system: level 1 in the owner company of both systems itself; a share, even with change, edits in place only',
    { target: 'companyLevel' },
  ),
  'systems.share': rule(1, 'Systems: sharing is part of system edit (level 1) in the owner company itself; a share with change does not allow re-sharing', {
    target: 'companyLevel',
  }),
  'systemConfiguration.view': rule(2, 'Configuration view needs 2', { target: 'systemRead' }),
  'systemStatus.view': rule(2, 'System status view needs 2', { target: 'systemRead' }),
  'states.mute': rule(1, 'Mute states needs 1', { target: 'systemWrite' }),
  'telemetry.view': rule(3, 'Telemetry (charts, current values, energy) of a visible system: everyone watches charts (not in §6)', { target: 'systemRead' }),

  // Dashboards
  'dashboards.view': rule(3, 'Everyone watches dashboards'),
  'dashboards.create': rule(0, 'Dashboard create needs level 0'),
  'dashboards.edit': rule(0, 'Dashboard edit needs level 0'),

  // The operator's home (issue 13): the fleet overview of the caller's visible systems (each section
  // limited in the query to what the caller's level in each company allows), data exports of a
  // visible system (downloading its telemetry, like its charts).
  'fleet.view': rule(3, 'Fleet overview: counts, energy and state of the systems the caller sees'),
  'exports.run': rule(3, 'Data export of a visible system (its telemetry, like its charts)', { target: 'systemRead' }),

  // Data processors
  'dataProcessors.create': rule(0, 'Data processors: create needs 0'),
  'dataProcessors.edit': rule(0, 'Data processors: edit needs 0'),
  'dataProcessors.delete': rule(0, 'Data processors: delete needs 0'),
  'dataProcessors.configure': rule(1, 'Data processors: configure needs 0 for calculated values and 1 otherwise', { target: 'processorKind' }),

  // Controllers and devices (fleet)
  'controllers.view': rule(2, 'Controllers: view 2', { target: 'systemRead' }),
  'controllers.configure': rule(1, 'Controllers: configure 1', { target: 'systemWrite' }),
  'devices.view': rule(2, 'Devices: view 2', { target: 'systemRead' }),
  'devices.configure': rule(1, 'Devices: configure 1', { target: 'systemWrite' }),

  // Admin, changelog, metadata
  'admin.view': rule(3, 'Admin view 3'),
  'admin.actions': rule(0, 'Admin actions need 0'),
  'changelog.view': rule(3, 'Changelog of a visible system', { target: 'systemRead' }),
  'changelog.create': rule(2, 'Changelog create 2', { target: 'systemRead' }),
  'changelog.edit': rule(2, 'Changelog edit 2: level 2 in the owner company, or the author (not through a read-only share)', { target: 'changelogEntry' }),
  'changelog.delete': rule(2, 'Changelog delete 2: level 2 in the owner company, or the author (not through a read-only share)', { target: 'changelogEntry' }),
  'metadata.view': rule(3, 'Metadata: view 3', { target: 'systemRead' }),
  'metadata.change': rule(2, 'Metadata: change 2', { target: 'systemWrite' }),

  // Catalogues
  'catalogueControllers.create': rule(0, 'Catalogues: controller create 0'),
  'catalogueControllers.delete': rule(0, 'Catalogues: controller delete 0'),
  'controllerTypes.view': rule(2, 'Controller types: view 2 or 0'),
  'controllerTypes.change': rule(0, 'Controller types: change 0'),
  'entityTypes.view': rule(2, 'Device types: view 2 or 0'),
  'entityTypes.change': rule(0, 'Device types: change 0'),
  'entityCategories.view': rule(2, 'Device categories: view 2 or 0'),
  'entityCategories.change': rule(0, 'Device categories: change 0'),
  'interfaceTypes.view': rule(2, 'Interface types: view 2 or 0'),
  'interfaceTypes.change': rule(0, 'Interface types: change 0'),
  'logParameters.view': rule(2, 'Log parameters: view 2 or 0'),
  'logParameters.change': rule(0, 'Log parameters: change 0'),
  'manufacturers.view': rule(2, 'Manufacturers: view 2 or 0'),
  'manufacturers.change': rule(0, 'Manufacturers: change 0'),
  'units.view': rule(2, 'Units: view 2 or 0'),
  'units.change': rule(0, 'Units: change 0'),

  // Sites
  'sites.view': rule(2, 'Sites: view 2', { target: 'companyMember' }),
  'sites.create': rule(1, 'Sites: create 1 in own company', { target: 'companyLevel' }),
  'sites.edit': rule(1, 'Sites: edit 1 in own company', { target: 'companyLevel' }),
  'sites.delete': rule(1, 'Sites: delete 1 in own company', { target: 'companyLevel' }),

  // Events
  'eventTemplates.view': rule(0, 'Events: templates view 0'),
  'eventTriggers.view': rule(2, 'Events: triggers view 2', { target: 'systemRead' }),
  'eventTriggers.change': rule(1, 'Events: triggers change 1', { target: 'systemWrite' }),

  // Channels and notifications
  'channels.view': rule(3, 'Channels: open to all', { target: 'companyMember' }),
  'channels.change': rule(3, 'Channels: open to all', { target: 'companyMember' }),
  'notifications.view': rule(3, 'Notifications: open to all'),
  'notifications.change': rule(3, 'Notifications: open to all'),

  // Hosted files (not in §6: documents and images of a company or system; brand assets need admin actions)
  'files.view': rule(3, 'Hosted files: members of the owner company, or of a company the system of the file is shared with', { target: 'systemRead' }),
  'files.upload': rule(2, 'Hosted files: upload needs level 2 in the owner company; brand assets need admin actions (0)', { target: 'companyLevel' }),
  'files.delete': rule(1, 'Hosted files: delete needs level 1 in the owner company; brand assets need admin actions (0)', { target: 'companyLevel' }),

  // API tokens (machine access for a company; not in §6: installers configure controllers)
  'authTokens.view': rule(1, 'API tokens: level 1 in the token company', { target: 'companyLevel' }),
  'authTokens.manage': rule(1, 'API tokens: level 1 in the token company', { target: 'companyLevel' }),
} as const satisfies Record<string, PermissionRule>;

export type Permission = keyof typeof POLICY;
export const PERMISSIONS = Object.keys(POLICY) as Permission[];

export const isPermission = (name: string): name is Permission => Object.prototype.hasOwnProperty.call(POLICY, name);

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
