import { z } from 'zod';
import { CONTROLLER_ID_PATTERN, CONTROLLER_ONLINE_STATES, SLUG_PATTERN } from '../../../shared/common/enums';
import { ZJsonObject, ZName, ZRefCuid } from '../../../shared/common/zod-fields';
import { fieldError } from '../common/field-error';
import type { ResourceDefinition } from '../crud/resource';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../../../shared/access/policy';
import { resourceAccess } from '../../../shared/access/resources';
import { writeConfigChangelog } from './config-changelog';
import { budgetsOf } from '../budgets/budgets.service';
import { controllerStateColumns, entityKindWhere, entityTypeKind } from './controllers-resources.repository';

type Def = ResourceDefinition<z.ZodObject, z.ZodObject, z.ZodObject>;
/** A JSON object as read back (answers are not re-checked against the input bounds). */
const ZStoredJson = z.record(z.string(), z.unknown());
const ZControllerId = z.string().trim().regex(CONTROLLER_ID_PATTERN, 'Letters, digits, "_", "." or "-" (max 64), safe in MQTT topics');

/**
 * Controllers (edge gateways) of a company. Spec §6: controllers view 2, configure 1; the
 * catalogue rule "controller … create and delete 0, edit 1" decides who adds and removes them.
 */
export const controllerResource: Def = {
  name: 'controller',
  table: 'controller',
  key: 'controller_id',
  generatedKey: false,
  record: z.object({
    controller_id: z.string(),
    controllertype_cuid: z.string(),
    company_cuid: z.string(),
    system_cuid: z.string().nullable(),
    name: z.string(),
    serial_number: z.string().nullable(),
    ssh_port: z.number().nullable(),
    sw_version: z.string().nullable(),
    controller_info: ZStoredJson,
    /** Desired configuration (sent by controllerConfig.apply). */
    config: ZStoredJson,
    /** What the controller last said it runs (read-only: from its acknowledgements). */
    reported_config: ZStoredJson.nullable(),
    reported_at: z.date().nullable(),
    /** Its online state as the presence machine last decided it (null before its first contact). */
    online_state: z.enum(CONTROLLER_ONLINE_STATES).nullable(),
    /** Its last contact (heartbeat or data). */
    last_contact: z.date().nullable(),
  }),
  create: z.object({
    controller_id: ZControllerId,
    controllertype_cuid: ZRefCuid,
    company_cuid: ZRefCuid,
    system_cuid: ZRefCuid.nullable().optional(),
    name: ZName,
    serial_number: z.string().trim().max(100).nullable().optional(),
    ssh_port: z.number().int().min(1).max(65535).nullable().optional(),
    sw_version: z.string().trim().max(64).nullable().optional(),
    controller_info: ZJsonObject.default({}),
    config: ZJsonObject.default({}),
  }),
  update: z
    .object({
      controllertype_cuid: ZRefCuid,
      system_cuid: ZRefCuid.nullable(),
      name: ZName,
      serial_number: z.string().trim().max(100).nullable(),
      ssh_port: z.number().int().min(1).max(65535).nullable(),
      sw_version: z.string().trim().max(64).nullable(),
      controller_info: ZJsonObject,
      config: ZJsonObject,
    })
    .partial(),
  ...resourceAccess('controller'),
  // Secret configuration values (wifi_psk, passwords, tokens) only for whoever may configure it.
  secrets: { columns: ['config', 'reported_config', 'controller_info'], perm: 'controllers.configure' },
  scope: { kind: 'company', column: 'company_cuid' },
  search: ['controller_id', 'name', 'serial_number'],
  filters: ['company_cuid', 'system_cuid', 'controllertype_cuid'],
  sorts: ['controller_id', 'name', 'serial_number', 'sw_version', 'online_state', 'last_contact'],
  defaultSort: { field: 'name', order: 'ASC' },
  sameCompanyReferences: [{ column: 'system_cuid', table: 'system', key: 'system_cuid', label: 'System' }],
  // State and last contact (controllers-resources.repository.ts).
  computed: controllerStateColumns,
  // A changed configuration is written to the system's changelog (CONFIGURATION) in the same transaction.
  beforeWrite: (tx, actor, row, current) => writeConfigChangelog(tx, actor, 'controller_id', row, current),
};

/** The entity type of a new or changed row must exist and be of the resource's side (device or processor). */
const checkKind = (device: boolean) => async (tx: EntityManager, actor: Actor, row: Record<string, unknown>, current?: Record<string, unknown>) => {
  const kind = await entityTypeKind(tx, row.entitytype_id);
  if (!kind) throw fieldError(['entitytype_id'], device ? 'Device type not found' : 'Data processor type not found');
  if ((kind === 'Device') !== device) {
    throw fieldError(
      ['entitytype_id'],
      device ? 'This type is a data processor type, not a device type' : 'This type is a device type, not a data processor type',
    );
  }
  // A changed configuration is written to the system's changelog (CONFIGURATION) in the same transaction.
  await writeConfigChangelog(tx, actor, 'entity_cuid', row, current);
};

/** Devices (spec Entity): seen and configured with their system (owner company or shares with change). */
export const deviceResource: Def = {
  name: 'entity',
  table: 'entity',
  key: 'entity_cuid',
  generatedKey: true,
  record: z.object({
    entity_cuid: z.string(),
    name: z.string(),
    controller_id: z.string().nullable(),
    config: ZStoredJson,
    entitytype_id: z.string(),
    system_cuid: z.string().nullable(),
    device_info: ZStoredJson,
    portal_config: ZStoredJson,
    /** What the controller last said this device runs (read-only: from its acknowledgements); `config` is the desired one. */
    reported_config: ZStoredJson.nullable(),
    reported_at: z.date().nullable(),
  }),
  create: z.object({
    name: ZName,
    controller_id: ZControllerId.nullable().optional(),
    config: ZJsonObject.default({}),
    entitytype_id: z.string().regex(SLUG_PATTERN),
    system_cuid: ZRefCuid,
    device_info: ZJsonObject.default({}),
    portal_config: ZJsonObject.default({}),
  }),
  update: z
    .object({
      name: ZName,
      controller_id: ZControllerId.nullable(),
      config: ZJsonObject,
      entitytype_id: z.string().regex(SLUG_PATTERN),
      system_cuid: ZRefCuid,
      device_info: ZJsonObject,
      portal_config: ZJsonObject,
    })
    .partial(),
  ...resourceAccess('entity'),
  // Secret configuration values (wifi_psk, passwords, tokens) only for whoever may configure it.
  secrets: { columns: ['config', 'reported_config', 'portal_config', 'device_info'], perm: 'devices.configure' },
  scope: { kind: 'system', column: 'system_cuid' },
  baseWhere: entityKindWhere(true),
  beforeWrite: async (tx, actor, row, current) => {
    await checkKind(true)(tx, actor, row, current);
    // TRIGGERS_PER_COMPANY: the triggers its type's autocreate templates will make for it, charged to the company its writer acts from.
    await budgetsOf(tx).assertRoomForTemplateTriggers(tx, actor, row);
  },
  // A device may only hang on a controller of its own system (ingest trusts this link): a
  // controller of another system, even of the owner company, is as missing as an unknown id, so a
  // share with change reaches no other system of the owner and learns no controller ids.
  sameSystemReferences: [{ column: 'controller_id', table: 'controller', key: 'controller_id', label: 'Controller' }],
  search: ['name', 'entitytype_id'],
  filters: ['system_cuid', 'controller_id', 'entitytype_id'],
  sorts: ['name', 'entitytype_id', 'controller_id'],
  defaultSort: { field: 'name', order: 'ASC' },
};

/**
 * Data processors (spec Entity whose type kind is StateMachine, CalculatedValue, DataSource or
 * ExternalInterface): the same table as devices. Spec §6: create, edit and delete need 0;
 * configuring (`dataProcessor.configure`, the config JSON) needs 0 for calculated values and 1
 * otherwise, and like any device write the owner company or a share with change.
 */
export const dataProcessorResource: Def = {
  ...deviceResource,
  name: 'dataProcessor',
  ...resourceAccess('dataProcessor'),
  baseWhere: entityKindWhere(false),
  beforeWrite: async (tx, actor, row, current) => {
    await checkKind(false)(tx, actor, row, current);
    // PROCESSORS_PER_COMPANY: a new processor (create, CSV import) or one moved to another system, charged to the company its writer acts from.
    await budgetsOf(tx).assertRoomForRow(tx, 'processors', actor, row, current);
  },
  targetExtra: async (tx, row) => ({ entity_type_kind: await entityTypeKind(tx, row.entitytype_id) }),
};

export const ZProcessorConfigure = z.object({
  id: z.union([z.string().trim().min(1).max(64), z.number()]).transform(String),
  config: ZJsonObject,
});
