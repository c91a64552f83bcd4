import type { Permission } from './policy';

/**
 * The back office's resources, once, for the server and the browser (pure, bundled into the
 * client): for every tRPC router the client uses as a react-admin resource, the permission of each
 * react-admin action and, for those that import CSV files, the file's columns.
 *
 * - The generated routers' definitions (`*.resource(s).ts`) take their `perms` and `importable`
 *   from here (`resourceAccess`), so a procedure enforces what the browser asks.
 * - The browser's `authProvider.canAccess` (client/src/permissions.ts) answers from here, and the
 *   CSV import button (client/src/kit/ImportButton.tsx) takes its columns from here.
 * - api/resource-access.spec.ts fails when a router of the app router has no entry, or when an
 *   entry's `perms` names a permission its procedure does not enforce.
 * - The server's messages name a resource by its `label` ("Unit not found"), and the French message
 *   catalogue (server/src/common/messages) takes the French from here.
 * - test/resources/resource-lists.spec.ts fails when a resource is declared here but missing from
 *   the server's definitions, routers, entities, browser pages, strings or policy matrix, or the other way round.
 */
export interface ResourceAccess {
  /**
   * The resource's name in the server's messages, in English and French ("Unit not found" /
   * "Unité introuvable"): every resource with a server definition (`resourceAccess` gives the
   * definition its `label`).
   */
  readonly label?: { readonly en: string; readonly fr: string };
  /**
   * Actions a procedure of the router of the same name answers, with the permission that procedure
   * enforces: list → getList (getMany, getManyReference, access), show → getOne, create → create,
   * edit → update (updateMany), delete → delete (deleteMany unless given), any other action → the
   * procedure of that name (configure, deactivate, acknowledge …).
   */
  readonly perms: Readonly<Partial<Record<string, Permission>>>;
  /**
   * Questions only the browser's pages ask (a tab, a chip, a button that calls another router or a
   * REST route), or where the page deliberately asks differently from the procedure; the browser
   * reads these before `perms`.
   */
  readonly pages?: Readonly<Partial<Record<string, Permission>>>;
  /**
   * Rows can be created from a CSV file: the router gets `<name>.importMany` (create permission).
   * `fields`: the columns it takes (the create schema's fields, in the order shown to the user);
   * `ignore`: columns skipped on purpose (an export's `id`, a generated key).
   * `names`: reference columns that may be given by name instead of id (ids no screen shows):
   * reference column → the CSV column of the name, the resource it names and that resource's
   * name column; a name is looked up only among the records the importing user can see.
   */
  readonly csv?: {
    readonly fields: readonly string[];
    readonly ignore: readonly string[];
    readonly names?: Readonly<Record<string, CsvName>>;
  };
}

/** A reference column of a CSV import given by the name of what it refers to. */
export interface CsvName {
  /** The CSV column holding the name (e.g. `company_name` for `company_cuid`). */
  readonly column: string;
  /** The resource named (e.g. `company`). */
  readonly resource: string;
  /** Its column holding the name (e.g. `name`; `model` for a controller type). */
  readonly match: string;
}

const COMPANY_NAME: CsvName = { column: 'company_name', resource: 'company', match: 'name' };
const SYSTEM_NAME: CsvName = { column: 'system_name', resource: 'system', match: 'name' };
const MANUFACTURER_NAME: CsvName = { column: 'manufacturer_name', resource: 'manufacturer', match: 'name' };

/** The usual generated router: view for the reads, one permission each for create, edit and delete. */
const crud = (view: Permission, create: Permission, edit: Permission = create, del: Permission = edit) =>
  ({ list: view, show: view, create, edit, delete: del }) as const;

export const RESOURCE_ACCESS = {
  user: {
    perms: {
      list: 'users.view',
      show: 'users.view',
      create: 'users.create',
      edit: 'users.edit',
      deactivate: 'users.deactivate',
      delete: 'users.delete',
      deleteMany: 'users.deleteAny',
    },
  },
  // The client asked companies.editAny until the two tables were one; the procedure enforces
  // companies.edit, whose coarse part (level 3, company admin) is the same, so the browser shows the same.
  company: { label: { en: 'Company', fr: 'Entreprise' }, perms: crud('companies.view', 'companies.create', 'companies.edit', 'companies.delete') },
  companyMembership: { perms: crud('users.view', 'memberships.edit') },
  // The roles screen belongs to user management (the role list itself is open to all: role.all).
  role: { perms: { list: 'roles.view', show: 'roles.view' }, pages: { list: 'users.view', show: 'users.view' } },
  system: {
    label: { en: 'System', fr: 'Système' },
    perms: crud('systems.view', 'systems.create', 'systems.edit', 'systems.delete'),
    pages: {
      configuration: 'systemConfiguration.view',
      telemetry: 'telemetry.view',
    },
    csv: {
      fields: ['company_cuid', 'name', 'deployment_date', 'asset_number', 'timezone', 'site_cuid'],
      ignore: ['id', 'system_cuid'],
      names: { company_cuid: COMPANY_NAME, site_cuid: { column: 'site_name', resource: 'site', match: 'name' } },
    },
  },
  systemSharing: { perms: crud('systems.view', 'systems.share') },
  systemMetadataTemplateSection: { label: { en: 'Template section', fr: 'Section de modèle' }, perms: crud('metadata.view', 'admin.actions') },
  systemMetadataTemplateFieldset: { label: { en: 'Template fieldset', fr: 'Groupe de champs de modèle' }, perms: crud('metadata.view', 'admin.actions') },
  systemChangelog: {
    label: { en: 'Changelog entry', fr: 'Entrée de journal des modifications' },
    perms: crud('changelog.view', 'changelog.create', 'changelog.edit', 'changelog.delete'),
  },
  systemMetadata: { label: { en: 'System metadata', fr: 'Métadonnées du système' }, perms: crud('metadata.view', 'metadata.change') },
  site: {
    label: { en: 'Site', fr: 'Site' },
    perms: crud('sites.view', 'sites.create', 'sites.edit', 'sites.delete'),
    csv: { fields: ['name', 'lat', 'long', 'company_cuid'], ignore: ['id', 'site_cuid'], names: { company_cuid: COMPANY_NAME } },
  },
  controller: {
    label: { en: 'Controller', fr: 'Contrôleur' },
    perms: crud('controllers.view', 'catalogueControllers.create', 'controllers.configure', 'catalogueControllers.delete'),
    pages: { configure: 'controllers.configure' },
    csv: {
      fields: [
        'controller_id',
        'controllertype_cuid',
        'company_cuid',
        'system_cuid',
        'name',
        'serial_number',
        'ssh_port',
        'sw_version',
        'controller_info',
        'config',
      ],
      ignore: ['id'],
      names: {
        controllertype_cuid: { column: 'controller_type_model', resource: 'controllerType', match: 'model' },
        company_cuid: COMPANY_NAME,
        system_cuid: SYSTEM_NAME,
      },
    },
  },
  entity: {
    label: { en: 'Device', fr: 'Appareil' },
    perms: crud('devices.view', 'devices.configure'),
    pages: { configure: 'devices.configure' },
    csv: {
      fields: ['name', 'controller_id', 'config', 'entitytype_id', 'system_cuid', 'device_info', 'portal_config'],
      ignore: ['id', 'entity_cuid'],
      names: { system_cuid: SYSTEM_NAME },
    },
  },
  dataProcessor: {
    label: { en: 'Data processor', fr: 'Processeur de données' },
    perms: { ...crud('devices.view', 'dataProcessors.create', 'dataProcessors.edit', 'dataProcessors.delete'), configure: 'dataProcessors.configure' },
  },
  controllerType: {
    label: { en: 'Controller type', fr: 'Type de contrôleur' },
    perms: crud('controllerTypes.view', 'controllerTypes.change'),
    csv: {
      fields: ['model', 'manufacturer_cuid', 'description', 'url', 'image', 'commands'],
      ignore: ['id', 'controllertype_cuid'],
      names: { manufacturer_cuid: MANUFACTURER_NAME },
    },
  },
  entityType: {
    label: { en: 'Device type', fr: "Type d'appareil" },
    perms: crud('entityTypes.view', 'entityTypes.change'),
    csv: {
      fields: ['entitytype_id', 'model', 'entity_type', 'manufacturer_cuid', 'description', 'url', 'image', 'translations'],
      ignore: ['id', 'entitytypemeta_id'],
      names: { manufacturer_cuid: MANUFACTURER_NAME },
    },
  },
  entityCategory: {
    label: { en: 'Device category', fr: "Catégorie d'appareil" },
    perms: crud('entityCategories.view', 'entityCategories.change'),
    csv: { fields: ['name', 'description', 'translations'], ignore: ['id', 'entitycategory_cuid'] },
  },
  interfaceType: {
    label: { en: 'Interface type', fr: "Type d'interface" },
    perms: crud('interfaceTypes.view', 'interfaceTypes.change'),
    csv: { fields: ['interfacetype_id', 'multidevice_support'], ignore: ['id'] },
  },
  logParameter: {
    label: { en: 'Log parameter', fr: 'Paramètre de journal' },
    perms: crud('logParameters.view', 'logParameters.change'),
    csv: {
      fields: ['parameter_id', 'description', 'unit_cuid', 'type', 'translations'],
      ignore: ['id'],
      names: { unit_cuid: { column: 'unit_name', resource: 'unit', match: 'unit' } },
    },
  },
  manufacturer: {
    label: { en: 'Manufacturer', fr: 'Fabricant' },
    perms: crud('manufacturers.view', 'manufacturers.change'),
    csv: { fields: ['name', 'url', 'company_cuid', 'translations'], ignore: ['id', 'manufacturer_cuid'], names: { company_cuid: COMPANY_NAME } },
  },
  unit: {
    label: { en: 'Unit', fr: 'Unité' },
    perms: crud('units.view', 'units.change'),
    csv: { fields: ['unit', 'description', 'unit_variants', 'translations'], ignore: ['id', 'unit_cuid'] },
  },
  entityTypeMeta: { label: { en: 'Device type meta', fr: "Description de type d'appareil" }, perms: crud('entityTypes.view', 'entityTypes.change') },
  interfaceTypeControllerTypeAssignment: {
    label: { en: 'Interface assignment', fr: "Affectation d'interface" },
    perms: crud('controllerTypes.view', 'controllerTypes.change'),
  },
  entityTypeLogParameterAssignment: {
    label: { en: 'Log parameter assignment', fr: 'Affectation de paramètre de journal' },
    perms: crud('entityTypes.view', 'entityTypes.change'),
    csv: { fields: ['entitytype_id', 'parameter_id'], ignore: ['id', 'entitylogparam_cuid'] },
  },
  entityCategoryLogParameterAssignment: {
    label: { en: 'Category parameter assignment', fr: 'Affectation de paramètre de catégorie' },
    perms: crud('entityCategories.view', 'entityCategories.change'),
    csv: {
      fields: ['entitycategory_cuid', 'parameter_id'],
      ignore: ['id', 'entitycatparam_cuid'],
      names: { entitycategory_cuid: { column: 'entity_category_name', resource: 'entityCategory', match: 'name' } },
    },
  },
  dashboard: { label: { en: 'Dashboard', fr: 'Tableau de bord' }, perms: crud('dashboards.view', 'dashboards.create', 'dashboards.edit') },
  notificationTemplateAssignment: { label: { en: 'Alert template', fr: "Modèle d'alerte" }, perms: crud('eventTemplates.view', 'admin.actions') },
  notificationTrigger: { label: { en: 'Trigger', fr: 'Déclencheur' }, perms: crud('eventTriggers.view', 'eventTriggers.change') },
  notificationChannel: { label: { en: 'Channel', fr: 'Canal' }, perms: crud('channels.view', 'channels.change') },
  // The channels' own procedures (alerts/channels): a channel is made with its details, per source.
  emailChannel: { perms: { create: 'channels.change', resendVerification: 'channels.change' } },
  telegramChannel: { perms: { create: 'channels.change' } },
  discordChannel: { perms: { create: 'channels.change' } },
  channelDetails: { perms: { get: 'channels.view', sources: 'channels.view', sendTest: 'channels.change' } },
  channelLink: { perms: { list: 'channels.view', set: 'channels.change' } },
  portalNotification: {
    perms: { acknowledge: 'notifications.change', mute: 'notifications.change' },
    pages: { list: 'notifications.view', show: 'notifications.view', edit: 'notifications.change' },
  },
  // Alarm screens (issue 11): alarms are notifications (open to all who see the system); trigger state goes with the trigger.
  alarm: {
    perms: {
      active: 'notifications.view',
      history: 'notifications.view',
      acknowledge: 'notifications.change',
      mute: 'notifications.change',
      unmute: 'notifications.change',
    },
    pages: { list: 'notifications.view', show: 'notifications.view' },
  },
  inbox: { perms: { unreadCount: 'notifications.view', markRead: 'notifications.change' }, pages: { list: 'notifications.view' } },
  triggerStatus: { perms: { get: 'eventTriggers.view' }, pages: { list: 'eventTriggers.view' } },
  authToken: {
    perms: { list: 'authTokens.view', show: 'authTokens.view', create: 'authTokens.manage', delete: 'authTokens.manage' },
    pages: { edit: 'authTokens.manage' },
  },
  admin: { perms: {}, pages: { list: 'admin.view', show: 'admin.view', actions: 'admin.actions' } },
  documentation: { label: { en: 'Documentation', fr: 'Documentation' }, perms: crud('admin.view', 'admin.actions') },
  systemDataExportTemplate: { label: { en: 'Export template', fr: "Modèle d'export" }, perms: crud('systemConfiguration.view', 'systems.edit') },
  // Control (issue 12): commands to controllers (send = configure, spec §6 "controllers configure 1";
  // apply_config of data processors also needs dataProcessors.configure per processor), the desired
  // against reported configuration, the system status view and device mutes.
  controllerCommand: { label: { en: 'Command', fr: 'Commande' }, perms: { list: 'controllers.view', show: 'controllers.view', send: 'controllers.configure' } },
  controllerConfig: { perms: { get: 'controllers.view', applyDifference: 'controllers.configure' } },
  systemStatus: { perms: { get: 'systemStatus.view' }, pages: { show: 'systemStatus.view' } },
  deviceMute: { perms: { list: 'systemStatus.view', create: 'states.mute', end: 'states.mute' } },
  hostedFile: { perms: { list: 'files.view', show: 'files.view', delete: 'files.delete' }, pages: { create: 'files.upload' } },
  rootDomain: { label: { en: 'Root domain', fr: 'Domaine racine' }, perms: crud('admin.view', 'admin.actions') },
  domain: { label: { en: 'Domain', fr: 'Domaine' }, perms: crud('admin.view', 'admin.actions') },
} as const satisfies Record<string, ResourceAccess>;

export type ResourceName = keyof typeof RESOURCE_ACCESS;

const table: Readonly<Record<string, ResourceAccess>> = RESOURCE_ACCESS;

/** The entry of a resource, or undefined. */
export const accessOf = (name: string): ResourceAccess | undefined => (Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined);

/** The CSV columns of an importable resource (undefined: it imports nothing). */
export const csvImportOf = (name: string): ResourceAccess['csv'] => accessOf(name)?.csv;

/** The English label of a resource (its name in the server's messages). Throws on an entry without one. */
export function labelOf(name: ResourceName): string {
  const label = table[name].label;
  if (!label) throw new Error(`access/resources.ts: ${name} has no label`);
  return label.en;
}

/** English label → French, for the server's French message catalogue. */
export const FRENCH_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.values(table).flatMap((e) => (e.label ? [[e.label.en, e.label.fr] as const] : [])),
);

/**
 * What a generated router's definition takes from its entry: its label, the four permissions of
 * the nine calls (+ importMany) and whether it imports CSV files. Throws on an entry that lacks one.
 */
export function resourceAccess(name: ResourceName): {
  label: string;
  perms: { view: Permission; create: Permission; edit: Permission; delete: Permission };
  importable: boolean;
} {
  const entry = table[name];
  const p = entry.perms;
  const [view, create, edit, del] = [p.list, p.create, p.edit, p.delete];
  if (!view || !create || !edit || !del || p.show !== view) throw new Error(`access/resources.ts: ${name} lacks one of list (= show), create, edit, delete`);
  return { label: labelOf(name), perms: { view, create, edit, delete: del }, importable: !!entry.csv };
}
