import { z } from 'zod';
import { ENTITY_TYPE_KINDS, LOG_PARAMETER_TYPES, SLUG_PATTERN } from '../../../shared/common/enums';
import { boundedJson, httpUrl, ZJsonObject, ZName, ZRefCuid } from '../../../shared/common/zod-fields';
import { TRPCError } from '@trpc/server';
import type { EntityManager } from 'typeorm';
import type { ResourceDefinition } from '../crud/resource';
import { resourceAccess } from '../../../shared/access/resources';
import { ZDeclaredCommands } from '../../../shared/catalogue/declared-commands';
import { logParameterUse } from './catalogue.repository';
import { translationsInput, ZTranslationsRecord } from '../common/translations';

/**
 * The catalogues superusers keep (spec §6: view 2, change 0): manufacturers, controller types and
 * their interfaces, interface types, entity (device) types with meta and log-parameter assignments,
 * entity categories with parameter assignments, units and log parameters.
 */
const ZSlug = z.string().trim().regex(SLUG_PATTERN, 'Lower-case letters, digits, "_", "." or "-" (max 64)');
const ZUrl = httpUrl().nullable().optional();
/** A picture: an http(s) URL or a file uploaded here (/api/files/…). */
const ZImage = httpUrl({ path: true }).nullable().optional();
const ZText = z.string().max(10_000).nullable().optional();
const nullable = <T extends z.ZodType>(t: T) => t.nullable();

/** French beside the English text fields people read (common/translations.ts). */
const ZManufacturerTr = translationsInput({ name: 200 });
const ZEntityTypeTr = translationsInput({ model: 200, description: 10_000 });
const ZEntityCategoryTr = translationsInput({ name: 200, description: 10_000 });
const ZUnitTr = translationsInput({ description: 10_000 });
const ZLogParameterTr = translationsInput({ description: 10_000 });

type Def = ResourceDefinition<z.ZodObject, z.ZodObject, z.ZodObject>;

export const manufacturerResource: Def = {
  name: 'manufacturer',
  table: 'manufacturer',
  key: 'manufacturer_cuid',
  generatedKey: true,
  record: z.object({
    manufacturer_cuid: z.string(),
    name: z.string(),
    url: z.string().nullable(),
    company_cuid: z.string().nullable(),
    translations: ZTranslationsRecord,
  }),
  create: z.object({ name: ZName, url: ZUrl, company_cuid: ZRefCuid.nullable().optional(), translations: ZManufacturerTr.default({}) }),
  update: z.object({ name: ZName, url: ZUrl, translations: ZManufacturerTr }).partial(),
  ...resourceAccess('manufacturer'),
  scope: { kind: 'companyOrGlobal', column: 'company_cuid' },
  search: ['name', 'url'],
  filters: ['company_cuid'],
  sorts: ['name'],
  defaultSort: { field: 'name', order: 'ASC' },
};

export const controllerTypeResource: Def = {
  name: 'controllerType',
  table: 'controller_type',
  key: 'controllertype_cuid',
  generatedKey: true,
  record: z.object({
    controllertype_cuid: z.string(),
    model: z.string(),
    image: z.string().nullable(),
    description: z.string().nullable(),
    url: z.string().nullable(),
    manufacturer_cuid: z.string(),
    /** The commands this model takes besides the built-in ones (field errors name `commands.<i>.<field>`). */
    commands: z.array(z.record(z.string(), z.unknown())),
  }),
  create: z.object({ model: ZName, image: ZImage, description: ZText, url: ZUrl, manufacturer_cuid: ZRefCuid, commands: ZDeclaredCommands.default([]) }),
  update: z.object({ model: ZName, image: ZImage, description: ZText, url: ZUrl, manufacturer_cuid: ZRefCuid, commands: ZDeclaredCommands }).partial(),
  ...resourceAccess('controllerType'),
  scope: { kind: 'global' },
  search: ['model', 'description'],
  filters: ['manufacturer_cuid'],
  sorts: ['model'],
  defaultSort: { field: 'model', order: 'ASC' },
};

export const interfaceTypeResource: Def = {
  name: 'interfaceType',
  table: 'interface_type',
  key: 'interfacetype_id',
  generatedKey: false,
  record: z.object({ interfacetype_id: z.string(), multidevice_support: z.boolean() }),
  create: z.object({ interfacetype_id: ZSlug, multidevice_support: z.boolean().default(false) }),
  update: z.object({ multidevice_support: z.boolean() }).partial(),
  ...resourceAccess('interfaceType'),
  scope: { kind: 'global' },
  search: ['interfacetype_id'],
  filters: ['multidevice_support'],
  sorts: ['interfacetype_id', 'multidevice_support'],
  defaultSort: { field: 'interfacetype_id', order: 'ASC' },
};

export const interfaceAssignmentResource: Def = {
  name: 'interfaceTypeControllerTypeAssignment',
  table: 'interface_type_controller_type_assignment',
  key: 'interfacedevice_cuid',
  generatedKey: true,
  record: z.object({
    interfacedevice_cuid: z.string(),
    alias: z.string().nullable(),
    interface_address: z.string().nullable(),
    controllertype_cuid: z.string(),
    interfacetype_id: z.string(),
  }),
  create: z.object({
    alias: z.string().trim().max(200).nullable().optional(),
    interface_address: z.string().trim().max(255).nullable().optional(),
    controllertype_cuid: ZRefCuid,
    interfacetype_id: ZSlug,
  }),
  update: z.object({ alias: nullable(z.string().trim().max(200)), interface_address: nullable(z.string().trim().max(255)), interfacetype_id: ZSlug }).partial(),
  ...resourceAccess('interfaceTypeControllerTypeAssignment'),
  scope: { kind: 'global' },
  search: ['alias', 'interface_address', 'interfacetype_id'],
  filters: ['controllertype_cuid', 'interfacetype_id'],
  sorts: ['alias', 'interfacetype_id', 'interface_address'],
  defaultSort: { field: 'interfacetype_id', order: 'ASC' },
};

export const entityTypeResource: Def = {
  name: 'entityType',
  table: 'entity_type',
  key: 'entitytype_id',
  generatedKey: false,
  record: z.object({
    entitytype_id: z.string(),
    manufacturer_cuid: z.string().nullable(),
    model: z.string(),
    image: z.string().nullable(),
    description: z.string().nullable(),
    url: z.string().nullable(),
    entity_type: z.enum(ENTITY_TYPE_KINDS),
    entitytypemeta_id: z.number().nullable(),
    translations: ZTranslationsRecord,
  }),
  create: z.object({
    entitytype_id: ZSlug,
    manufacturer_cuid: ZRefCuid.nullable().optional(),
    model: ZName,
    image: ZImage,
    description: ZText,
    url: ZUrl,
    entity_type: z.enum(ENTITY_TYPE_KINDS),
    translations: ZEntityTypeTr.default({}),
  }),
  update: z
    .object({
      manufacturer_cuid: ZRefCuid.nullable(),
      model: ZName,
      image: ZImage,
      description: ZText,
      url: ZUrl,
      entity_type: z.enum(ENTITY_TYPE_KINDS),
      translations: ZEntityTypeTr,
    })
    .partial(),
  ...resourceAccess('entityType'),
  scope: { kind: 'global' },
  search: ['entitytype_id', 'model', 'description'],
  filters: ['manufacturer_cuid', 'entity_type'],
  sorts: ['entitytype_id', 'model', 'entity_type'],
  defaultSort: { field: 'model', order: 'ASC' },
  selectExpressions: { entity_type: 't.entity_type::text' },
};

export const entityTypeMetaResource: Def = {
  name: 'entityTypeMeta',
  table: 'entity_type_meta',
  key: 'entitytypemeta_id',
  generatedKey: 'database',
  record: z.object({ entitytypemeta_id: z.number(), datetime: z.date(), meta: z.record(z.string(), z.unknown()), entitytype_id: z.string() }),
  create: z.object({ meta: ZJsonObject, entitytype_id: ZSlug }),
  update: z.object({ meta: ZJsonObject }).partial(),
  ...resourceAccess('entityTypeMeta'),
  scope: { kind: 'global' },
  search: ['entitytype_id'],
  filters: ['entitytype_id'],
  sorts: ['datetime', 'entitytype_id'],
  defaultSort: { field: 'datetime', order: 'DESC' },
};

export const entityCategoryResource: Def = {
  name: 'entityCategory',
  table: 'entity_category',
  key: 'entitycategory_cuid',
  generatedKey: true,
  record: z.object({ entitycategory_cuid: z.string(), name: z.string(), description: z.string().nullable(), translations: ZTranslationsRecord }),
  create: z.object({ name: ZName, description: ZText, translations: ZEntityCategoryTr.default({}) }),
  update: z.object({ name: ZName, description: ZText, translations: ZEntityCategoryTr }).partial(),
  ...resourceAccess('entityCategory'),
  scope: { kind: 'global' },
  search: ['name', 'description'],
  filters: [],
  sorts: ['name'],
  defaultSort: { field: 'name', order: 'ASC' },
};

/**
 * Other forms of a unit: a spelling devices use for the same unit ("kwh") or a scaled unit with
 * its factor from the base unit ({ unit: 'kW', factor: 0.001 } for W), as the seed catalogue has.
 */
const ZUnitVariants = boundedJson(
  z
    .array(z.union([z.string().trim().min(1).max(32), z.object({ unit: z.string().trim().min(1).max(32), factor: z.number().finite().positive() }).strict()]))
    .max(50),
);

export const unitResource: Def = {
  name: 'unit',
  table: 'unit',
  key: 'unit_cuid',
  generatedKey: true,
  record: z.object({
    unit_cuid: z.string(),
    unit: z.string(),
    description: z.string().nullable(),
    unit_variants: z.array(z.unknown()),
    translations: ZTranslationsRecord,
  }),
  create: z.object({ unit: z.string().trim().min(1).max(32), description: ZText, unit_variants: ZUnitVariants.default([]), translations: ZUnitTr.default({}) }),
  update: z.object({ unit: z.string().trim().min(1).max(32), description: ZText, unit_variants: ZUnitVariants, translations: ZUnitTr }).partial(),
  ...resourceAccess('unit'),
  scope: { kind: 'global' },
  search: ['unit', 'description'],
  filters: [],
  sorts: ['unit'],
  defaultSort: { field: 'unit', order: 'ASC' },
};

/**
 * A log parameter is global: deleting it would cascade through every company's telemetry (raw
 * rows and rollups) and drop it from device types, categories and alert rules. While anything
 * refers to it, the delete answers CONFLICT and nothing is lost. (The row is locked by the delete,
 * so an ingest that refers to it waits and then fails rather than being cascaded away.)
 */
async function refuseLogParameterInUse(tx: EntityManager, _actor: unknown, row: Record<string, unknown>): Promise<void> {
  const id = String(row.parameter_id);
  const use = await logParameterUse(tx, id);
  if (use) {
    throw new TRPCError({ code: 'CONFLICT', message: `This log parameter is still used (${use}); remove those uses first` });
  }
}

export const logParameterResource: Def = {
  name: 'logParameter',
  table: 'log_parameter',
  key: 'parameter_id',
  generatedKey: false,
  record: z.object({
    parameter_id: z.string(),
    description: z.string().nullable(),
    unit_cuid: z.string().nullable(),
    type: z.enum(LOG_PARAMETER_TYPES),
    translations: ZTranslationsRecord,
  }),
  create: z.object({
    parameter_id: ZSlug,
    description: ZText,
    unit_cuid: ZRefCuid.nullable().optional(),
    type: z.enum(LOG_PARAMETER_TYPES),
    translations: ZLogParameterTr.default({}),
  }),
  update: z.object({ description: ZText, unit_cuid: ZRefCuid.nullable(), type: z.enum(LOG_PARAMETER_TYPES), translations: ZLogParameterTr }).partial(),
  ...resourceAccess('logParameter'),
  scope: { kind: 'global' },
  search: ['parameter_id', 'description'],
  filters: ['unit_cuid', 'type'],
  sorts: ['parameter_id', 'type'],
  defaultSort: { field: 'parameter_id', order: 'ASC' },
  selectExpressions: { type: 't.type::text' },
  beforeDelete: refuseLogParameterInUse,
};

export const entityTypeParameterResource: Def = {
  name: 'entityTypeLogParameterAssignment',
  table: 'entity_type_log_parameter_assignment',
  key: 'entitylogparam_cuid',
  generatedKey: true,
  record: z.object({ entitylogparam_cuid: z.string(), entitytype_id: z.string(), parameter_id: z.string() }),
  create: z.object({ entitytype_id: ZSlug, parameter_id: ZSlug }),
  update: z.object({ parameter_id: ZSlug }).partial(),
  ...resourceAccess('entityTypeLogParameterAssignment'),
  scope: { kind: 'global' },
  search: ['parameter_id'],
  filters: ['entitytype_id', 'parameter_id'],
  sorts: ['parameter_id', 'entitytype_id'],
  defaultSort: { field: 'parameter_id', order: 'ASC' },
};

export const entityCategoryParameterResource: Def = {
  name: 'entityCategoryLogParameterAssignment',
  table: 'entity_category_log_parameter_assignment',
  key: 'entitycatparam_cuid',
  generatedKey: true,
  record: z.object({ entitycatparam_cuid: z.string(), entitycategory_cuid: z.string(), parameter_id: z.string() }),
  create: z.object({ entitycategory_cuid: ZRefCuid, parameter_id: ZSlug }),
  update: z.object({ parameter_id: ZSlug }).partial(),
  ...resourceAccess('entityCategoryLogParameterAssignment'),
  scope: { kind: 'global' },
  search: ['parameter_id'],
  filters: ['entitycategory_cuid', 'parameter_id'],
  sorts: ['parameter_id'],
  defaultSort: { field: 'parameter_id', order: 'ASC' },
};

/** The catalogue's resources by router name (api/resource-routers.ts mounts them all): a new one is a line here. */
export const CATALOGUE_RESOURCES = {
  manufacturer: manufacturerResource,
  controllerType: controllerTypeResource,
  interfaceType: interfaceTypeResource,
  interfaceTypeControllerTypeAssignment: interfaceAssignmentResource,
  entityType: entityTypeResource,
  entityTypeMeta: entityTypeMetaResource,
  entityCategory: entityCategoryResource,
  unit: unitResource,
  logParameter: logParameterResource,
  entityTypeLogParameterAssignment: entityTypeParameterResource,
  entityCategoryLogParameterAssignment: entityCategoryParameterResource,
} as const;
