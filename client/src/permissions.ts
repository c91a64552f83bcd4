import { type Actor, actorFromContext, type Permission } from '../../server/src/access/policy';
import type { TSessionContext } from './session/auth-api';

/**
 * react-admin resource + action → the permission of spec §6 (server/src/access/policy.ts) that
 * answers `authProvider.canAccess`. Resource names are tRPC router names (`system` →
 * `system.getList`), so the menu and the buttons ask exactly what the server enforces.
 *
 * Actions: react-admin's list, show, create, edit, delete, export and clone; `read` (field-level
 * checks on "resource.field") counts as show; any other action a page asks for must be listed
 * here. Unknown resources and actions are refused (fail closed). Only the coarse part of a rule
 * is asked (level, company admin): rules about one record are the server's to check.
 */
export const RESOURCE_PERMISSIONS: Record<string, Partial<Record<string, Permission>>> = {
  //                      view                          change …
  user: { list: 'users.view', show: 'users.view', create: 'users.create', edit: 'users.edit', deactivate: 'users.deactivate', delete: 'users.delete', deleteMany: 'users.deleteAny' },
  company: { list: 'companies.view', show: 'companies.view', create: 'companies.create', edit: 'companies.edit', delete: 'companies.delete' },
  companyMembership: { list: 'users.view', show: 'users.view', create: 'memberships.edit', edit: 'memberships.edit', delete: 'memberships.edit' },
  // The roles screen belongs to user management (the role list itself is open to all: role.all).
  role: { list: 'users.view', show: 'users.view' },
  system: {
    list: 'systems.view',
    show: 'systems.view',
    create: 'systems.create',
    edit: 'systems.edit',
    delete: 'systems.delete',
    configuration: 'systemConfiguration.view',
    telemetry: 'telemetry.view',
  },
  systemSharing: { list: 'systems.view', show: 'systems.view', create: 'systems.share', edit: 'systems.share', delete: 'systems.share' },
  systemMetadataTemplateSection: { list: 'metadata.view', show: 'metadata.view', create: 'admin.actions', edit: 'admin.actions', delete: 'admin.actions' },
  systemMetadataTemplateFieldset: { list: 'metadata.view', show: 'metadata.view', create: 'admin.actions', edit: 'admin.actions', delete: 'admin.actions' },
  systemChangelog: { list: 'changelog.view', show: 'changelog.view', create: 'changelog.create', edit: 'changelog.edit', delete: 'changelog.delete' },
  systemMetadata: { list: 'metadata.view', show: 'metadata.view', create: 'metadata.change', edit: 'metadata.change', delete: 'metadata.change' },
  site: { list: 'sites.view', show: 'sites.view', create: 'sites.create', edit: 'sites.edit', delete: 'sites.delete' },
  controller: { list: 'controllers.view', show: 'controllers.view', create: 'catalogueControllers.create', edit: 'controllers.configure', configure: 'controllers.configure', delete: 'catalogueControllers.delete' },
  entity: { list: 'devices.view', show: 'devices.view', create: 'devices.configure', edit: 'devices.configure', configure: 'devices.configure', delete: 'devices.configure' },
  dataProcessor: { list: 'devices.view', show: 'devices.view', create: 'dataProcessors.create', edit: 'dataProcessors.edit', delete: 'dataProcessors.delete', configure: 'dataProcessors.configure' },
  controllerType: { list: 'controllerTypes.view', show: 'controllerTypes.view', create: 'controllerTypes.change', edit: 'controllerTypes.change', delete: 'controllerTypes.change' },
  entityType: { list: 'entityTypes.view', show: 'entityTypes.view', create: 'entityTypes.change', edit: 'entityTypes.change', delete: 'entityTypes.change' },
  entityCategory: { list: 'entityCategories.view', show: 'entityCategories.view', create: 'entityCategories.change', edit: 'entityCategories.change', delete: 'entityCategories.change' },
  interfaceType: { list: 'interfaceTypes.view', show: 'interfaceTypes.view', create: 'interfaceTypes.change', edit: 'interfaceTypes.change', delete: 'interfaceTypes.change' },
  logParameter: { list: 'logParameters.view', show: 'logParameters.view', create: 'logParameters.change', edit: 'logParameters.change', delete: 'logParameters.change' },
  manufacturer: { list: 'manufacturers.view', show: 'manufacturers.view', create: 'manufacturers.change', edit: 'manufacturers.change', delete: 'manufacturers.change' },
  unit: { list: 'units.view', show: 'units.view', create: 'units.change', edit: 'units.change', delete: 'units.change' },
  entityTypeMeta: { list: 'entityTypes.view', show: 'entityTypes.view', create: 'entityTypes.change', edit: 'entityTypes.change', delete: 'entityTypes.change' },
  interfaceTypeControllerTypeAssignment: { list: 'controllerTypes.view', show: 'controllerTypes.view', create: 'controllerTypes.change', edit: 'controllerTypes.change', delete: 'controllerTypes.change' },
  entityTypeLogParameterAssignment: { list: 'entityTypes.view', show: 'entityTypes.view', create: 'entityTypes.change', edit: 'entityTypes.change', delete: 'entityTypes.change' },
  entityCategoryLogParameterAssignment: { list: 'entityCategories.view', show: 'entityCategories.view', create: 'entityCategories.change', edit: 'entityCategories.change', delete: 'entityCategories.change' },
  dashboard: { list: 'dashboards.view', show: 'dashboards.view', create: 'dashboards.create', edit: 'dashboards.edit', delete: 'dashboards.edit' },
  notificationTemplateAssignment: { list: 'eventTemplates.view', show: 'eventTemplates.view', create: 'admin.actions', edit: 'admin.actions', delete: 'admin.actions' },
  notificationTemplate: { list: 'eventTemplates.view', show: 'eventTemplates.view' },
  notificationTrigger: { list: 'eventTriggers.view', show: 'eventTriggers.view', create: 'eventTriggers.change', edit: 'eventTriggers.change', delete: 'eventTriggers.change' },
  notificationChannel: { list: 'channels.view', show: 'channels.view', create: 'channels.change', edit: 'channels.change', delete: 'channels.change' },
  notification: { list: 'notifications.view', show: 'notifications.view', edit: 'notifications.change' },
  portalNotification: { list: 'notifications.view', show: 'notifications.view', edit: 'notifications.change', acknowledge: 'notifications.change', mute: 'notifications.change' },
  authToken: { list: 'authTokens.view', show: 'authTokens.view', create: 'authTokens.manage', edit: 'authTokens.manage', delete: 'authTokens.manage' },
  admin: { list: 'admin.view', show: 'admin.view', actions: 'admin.actions' },
  documentation: { list: 'admin.view', show: 'admin.view', create: 'admin.actions', edit: 'admin.actions', delete: 'admin.actions' },
  systemDataExportTemplate: { list: 'systemConfiguration.view', show: 'systemConfiguration.view', create: 'systems.edit', edit: 'systems.edit', delete: 'systems.edit' },
  hostedFile: { list: 'files.view', show: 'files.view', create: 'files.upload', delete: 'files.delete' },
  rootDomain: { list: 'admin.view', show: 'admin.view', create: 'admin.actions', edit: 'admin.actions', delete: 'admin.actions' },
  domain: { list: 'admin.view', show: 'admin.view', create: 'admin.actions', edit: 'admin.actions', delete: 'admin.actions' },
};

/** Actions that mean the same permission as another. */
const ACTION_ALIASES: Record<string, string> = { read: 'show', export: 'list', clone: 'create' };

/** The permission for a react-admin access question; undefined = unknown, refused. */
export function permissionFor(resource: string, action: string): Permission | undefined {
  // Field-level questions come as "resource.field".
  const base = resource.includes('.') ? resource.slice(0, resource.indexOf('.')) : resource;
  const table = RESOURCE_PERMISSIONS[base];
  if (!table) return undefined;
  const key = ACTION_ALIASES[action] ?? action;
  return table[key] ?? (key === 'list' ? table.show : key === 'show' ? table.list : undefined);
}

/** The policy's view of the signed-in user. */
export const actorOf = (context: TSessionContext): Actor => actorFromContext(context);
