/**
 * The permission table of spec §6, as data: every permission with the role level it needs, whether
 * it needs a company admin, and the target rule the service asks against the record it touches.
 * Pure TypeScript with no imports; the questions asked of it (who may use what, on which record)
 * are in ./policy.ts, which re-exports this table.
 *
 * Role levels: lower is more powerful (0 Superuser, 1 SystemInstaller, 2 Expert, 3 Basic).
 */

export const ROLE_LEVEL = { Superuser: 0, SystemInstaller: 1, Expert: 2, Basic: 3 } as const;
export type RoleLevel = 0 | 1 | 2 | 3;

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
