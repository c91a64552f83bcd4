import type { EntityManager } from 'typeorm';
import type { Translations } from '../common/translations';
import type { JsonValue, LogParameterTypeValue } from '../../../shared/common/enums';
import { newCuid } from '../common/ids';
import { ControllerTypeEntity } from '../catalogue/controller-type.entity';
import { EntityCategoryLogParameterAssignmentEntity } from '../catalogue/entity-category-log-parameter-assignment.entity';
import { EntityCategoryEntity } from '../catalogue/entity-category.entity';
import { EntityTypeLogParameterAssignmentEntity } from '../catalogue/entity-type-log-parameter-assignment.entity';
import { EntityTypeMetaEntity } from '../catalogue/entity-type-meta.entity';
import { EntityTypeEntity } from '../catalogue/entity-type.entity';
import { InterfaceTypeControllerTypeAssignmentEntity } from '../catalogue/interface-type-controller-type-assignment.entity';
import { InterfaceTypeEntity } from '../catalogue/interface-type.entity';
import { LogParameterEntity } from '../catalogue/log-parameter.entity';
import { ManufacturerEntity } from '../catalogue/manufacturer.entity';
import { UnitEntity } from '../catalogue/unit.entity';

/**
 * The demo's catalogue: manufacturers, interfaces, the controller type, units and log parameters,
 * the device types with their parameters and meta, and the entity categories. Returns the
 * controller type the demo's controller uses.
 */
export async function seedDemoCatalogue(m: EntityManager): Promise<{ cerboGx: string }> {
  // Catalogue: manufacturers, interfaces, controller type
  const victron = newCuid();
  const pylontech = newCuid();
  await m.insert(ManufacturerEntity, [
    { manufacturer_cuid: victron, name: 'Victron Energy', url: 'https://www.victronenergy.com' },
    { manufacturer_cuid: pylontech, name: 'Pylontech', url: 'https://en.pylontech.com.cn' },
  ]);
  await m.insert(InterfaceTypeEntity, [
    { interfacetype_id: 'modbus-tcp', multidevice_support: true },
    { interfacetype_id: 've-can', multidevice_support: true },
  ]);
  const cerboGx = newCuid();
  await m.insert(ControllerTypeEntity, {
    controllertype_cuid: cerboGx,
    model: 'Cerbo GX',
    description: 'Victron system controller (Venus OS) used as the edge gateway.',
    url: 'https://www.victronenergy.com/panel-systems-remote-monitoring/cerbo-gx',
    manufacturer_cuid: victron,
    // Commands beyond the built-in ones (ZDeclaredCommands); the dangerous ones ask for the password again.
    commands: [
      {
        name: 'genset_start',
        label: 'Start the genset',
        description: 'Starts the backup genset now (it stops by itself at the stop charge).',
        dangerous: true,
        args: [],
      },
      { name: 'genset_stop', label: 'Stop the genset', description: 'Stops the backup genset now.', dangerous: true, args: [] },
      {
        name: 'set_export_limit',
        label: 'Set the export limit',
        description: 'Caps the power fed into the grid.',
        dangerous: false,
        args: [{ name: 'limit_w', label: 'Limit (W)', type: 'number', required: true, min: 0, max: 100_000 }],
      },
    ],
  });
  await m.insert(InterfaceTypeControllerTypeAssignmentEntity, [
    {
      interfacedevice_cuid: newCuid(),
      alias: 'VE.Can 1',
      interface_address: 'vecan0',
      controllertype_cuid: cerboGx,
      interfacetype_id: 've-can',
    },
    {
      interfacedevice_cuid: newCuid(),
      alias: 'Ethernet',
      interface_address: 'eth0:502',
      controllertype_cuid: cerboGx,
      interfacetype_id: 'modbus-tcp',
    },
  ]);

  // Units and log parameters
  const units: Array<{ unit: string; description: string; unit_variants: JsonValue[]; translations: Translations }> = [
    {
      unit: 'W',
      description: 'Watt',
      unit_variants: [
        { unit: 'kW', factor: 1e-3 },
        { unit: 'MW', factor: 1e-6 },
      ],
      translations: { fr: { description: 'Watt' } },
    },
    {
      unit: 'kWh',
      description: 'Kilowatt-hour',
      unit_variants: [
        { unit: 'Wh', factor: 1e3 },
        { unit: 'MWh', factor: 1e-3 },
      ],
      translations: { fr: { description: 'Kilowattheure' } },
    },
    { unit: '%', description: 'Percent', unit_variants: [], translations: { fr: { description: 'Pour cent' } } },
    { unit: 'V', description: 'Volt', unit_variants: [{ unit: 'kV', factor: 1e-3 }], translations: { fr: { description: 'Volt' } } },
    { unit: 'A', description: 'Ampere', unit_variants: [{ unit: 'kA', factor: 1e-3 }], translations: { fr: { description: 'Ampère' } } },
    { unit: '°C', description: 'Degree Celsius', unit_variants: [], translations: { fr: { description: 'Degré Celsius' } } },
  ];
  const unitCuid = new Map<string, string>();
  for (const u of units) {
    const unit_cuid = newCuid();
    unitCuid.set(u.unit, unit_cuid);
    await m.insert(UnitEntity, { unit_cuid, ...u });
  }
  const parameters: Array<{ id: string; type: LogParameterTypeValue; unit: string | null; description: string; fr: string }> = [
    { id: 'pv_power', type: 'FloatLogParameter', unit: 'W', description: 'PV power', fr: 'Puissance PV' },
    { id: 'ac_output_power', type: 'FloatLogParameter', unit: 'W', description: 'AC output power', fr: 'Puissance de sortie CA' },
    { id: 'battery_soc', type: 'FloatLogParameter', unit: '%', description: 'Battery state of charge', fr: 'État de charge de la batterie' },
    { id: 'battery_voltage', type: 'FloatLogParameter', unit: 'V', description: 'Battery voltage', fr: 'Tension de la batterie' },
    { id: 'battery_current', type: 'FloatLogParameter', unit: 'A', description: 'Battery current (+ charging)', fr: 'Courant de la batterie (+ en charge)' },
    { id: 'battery_temperature', type: 'FloatLogParameter', unit: '°C', description: 'Battery temperature', fr: 'Température de la batterie' },
    { id: 'genset_running', type: 'BoolLogParameter', unit: null, description: 'Genset running', fr: 'Groupe électrogène en marche' },
    { id: 'genset_power', type: 'FloatLogParameter', unit: 'W', description: 'Genset output power', fr: 'Puissance du groupe électrogène' },
    { id: 'energy_total', type: 'CounterLogParameter', unit: 'kWh', description: 'Energy counter', fr: "Compteur d'énergie" },
    { id: 'inverter_state', type: 'EnumLogParameter', unit: null, description: 'Inverter state', fr: "État de l'onduleur" },
  ];
  await m.insert(
    LogParameterEntity,
    parameters.map((p) => ({
      parameter_id: p.id,
      type: p.type,
      unit_cuid: p.unit ? (unitCuid.get(p.unit) ?? null) : null,
      description: p.description,
      translations: { fr: { description: p.fr } },
    })),
  );

  // Entity types (devices) with their log parameters
  const entityTypes: Array<{
    id: string;
    model: string;
    manufacturer: string | null;
    description: string;
    parameters: string[];
  }> = [
    {
      id: 'victron-multiplus-ii',
      model: 'MultiPlus-II 48/5000',
      manufacturer: victron,
      description: 'Inverter/charger',
      parameters: ['ac_output_power', 'inverter_state', 'energy_total'],
    },
    {
      id: 'pylontech-us5000',
      model: 'US5000',
      manufacturer: pylontech,
      description: 'Lithium battery module',
      parameters: ['battery_soc', 'battery_voltage', 'battery_current', 'battery_temperature'],
    },
    {
      id: 'victron-smartsolar-mppt-250-100',
      model: 'SmartSolar MPPT 250/100',
      manufacturer: victron,
      description: 'PV charge controller',
      parameters: ['pv_power', 'energy_total', 'battery_voltage'],
    },
    {
      id: 'diesel-genset',
      model: 'Diesel generator set',
      manufacturer: null,
      description: 'Backup diesel genset with run signal',
      parameters: ['genset_running', 'genset_power'],
    },
  ];
  for (const t of entityTypes) {
    await m.insert(EntityTypeEntity, {
      entitytype_id: t.id,
      model: t.model,
      manufacturer_cuid: t.manufacturer,
      description: t.description,
      entity_type: 'Device',
    });
    await m.insert(
      EntityTypeLogParameterAssignmentEntity,
      t.parameters.map((parameter_id) => ({ entitylogparam_cuid: newCuid(), entitytype_id: t.id, parameter_id })),
    );
  }
  // The inverter's meta: what its enum values mean.
  const meta = await m.insert(EntityTypeMetaEntity, {
    entitytype_id: 'victron-multiplus-ii',
    meta: { enums: { inverter_state: { 0: 'Off', 1: 'Low power', 2: 'Fault', 3: 'Bulk', 9: 'Inverting' } } },
  });
  const entitytypemeta_id = (meta.identifiers[0] as { entitytypemeta_id: number }).entitytypemeta_id;
  await m.update(EntityTypeEntity, { entitytype_id: 'victron-multiplus-ii' }, { entitytypemeta_id });

  // Entity categories
  const battery = newCuid();
  const generation = newCuid();
  await m.insert(EntityCategoryEntity, [
    { entitycategory_cuid: battery, name: 'Battery storage', description: 'Battery banks and modules' },
    { entitycategory_cuid: generation, name: 'Generation', description: 'PV chargers, inverters and gensets' },
  ]);
  await m.insert(EntityCategoryLogParameterAssignmentEntity, [
    { entitycatparam_cuid: newCuid(), entitycategory_cuid: battery, parameter_id: 'battery_soc' },
    { entitycatparam_cuid: newCuid(), entitycategory_cuid: battery, parameter_id: 'battery_voltage' },
    { entitycatparam_cuid: newCuid(), entitycategory_cuid: generation, parameter_id: 'pv_power' },
    { entitycatparam_cuid: newCuid(), entitycategory_cuid: generation, parameter_id: 'energy_total' },
  ]);

  return { cerboGx };
}
