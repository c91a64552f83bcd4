import type { EntityManager } from 'typeorm';
import { insertMetadataFieldset, insertMetadataSection, metadataSectionCount } from './seed.repository';
import type { TMetadataField } from '../systems/system-metadata.schema';

interface SeedFieldset {
  title: string;
  description?: string;
  fields: TMetadataField[];
}
interface SeedSection {
  title: string;
  description: string;
  isPhaseSection?: boolean;
  fieldsets: SeedFieldset[];
}

/** The default system metadata form (docs/system-metadata.md): what an installer records on site. */
export const DEFAULT_METADATA_TEMPLATE: readonly SeedSection[] = [
  {
    title: 'General',
    description: 'The system as a whole: who runs it, what it supplies, when it was commissioned.',
    fieldsets: [
      {
        title: 'Site and operation',
        fields: [
          { key: 'operator', label: 'Operator', type: 'text' },
          {
            key: 'system_type',
            label: 'System type',
            type: 'select',
            options: ['Mini-grid', 'Solar home system', 'Productive use', 'Health facility', 'School', 'Telecom', 'Other'],
          },
          { key: 'commissioning_date', label: 'Commissioning date', type: 'date' },
          { key: 'connections', label: 'Customer connections', type: 'integer', min: 0 },
          { key: 'grid_connected', label: 'Connected to the national grid', type: 'boolean' },
          { key: 'notes', label: 'Notes', type: 'text' },
        ],
      },
    ],
  },
  {
    title: 'PV array',
    description: 'Solar modules and their charge controllers or inverters.',
    fieldsets: [
      {
        title: 'Modules',
        fields: [
          { key: 'module_model', label: 'Module model', type: 'text' },
          { key: 'module_power', label: 'Module power', type: 'number', unit: 'Wp', min: 0 },
          { key: 'module_count', label: 'Number of modules', type: 'integer', min: 0 },
          { key: 'peak_power', label: 'Array peak power', type: 'number', unit: 'kWp', min: 0 },
          { key: 'tilt', label: 'Tilt', type: 'number', unit: '°', min: 0, max: 90 },
          { key: 'azimuth', label: 'Azimuth', type: 'number', unit: '°', min: 0, max: 360 },
          { key: 'mounting', label: 'Mounting', type: 'select', options: ['Roof', 'Ground', 'Carport', 'Tracker'] },
        ],
      },
    ],
  },
  {
    title: 'Battery',
    description: 'The storage bank.',
    fieldsets: [
      {
        title: 'Battery bank',
        fields: [
          {
            key: 'chemistry',
            label: 'Chemistry',
            type: 'select',
            options: ['Lithium iron phosphate', 'Lithium NMC', 'Lead-acid (flooded)', 'Lead-acid (AGM/gel)', 'Other'],
          },
          { key: 'battery_model', label: 'Battery model', type: 'text' },
          { key: 'nominal_voltage', label: 'Nominal voltage', type: 'number', unit: 'V', min: 0 },
          { key: 'capacity', label: 'Usable capacity', type: 'number', unit: 'kWh', min: 0 },
          { key: 'installation_date', label: 'Installation date', type: 'date' },
        ],
      },
    ],
  },
  {
    title: 'Genset',
    description: 'Backup generator, if any.',
    fieldsets: [
      {
        title: 'Generator',
        fields: [
          { key: 'present', label: 'Generator present', type: 'boolean' },
          { key: 'genset_model', label: 'Model', type: 'text' },
          { key: 'rated_power', label: 'Rated power', type: 'number', unit: 'kVA', min: 0 },
          { key: 'fuel', label: 'Fuel', type: 'select', options: ['Diesel', 'Petrol', 'LPG', 'Biogas'] },
          { key: 'tank_size', label: 'Tank size', type: 'number', unit: 'L', min: 0 },
        ],
      },
    ],
  },
  {
    title: 'Grid phases',
    description: 'Per phase (L1–L3) of the distribution grid or the grid connection.',
    isPhaseSection: true,
    fieldsets: [
      {
        title: 'Phase',
        fields: [
          { key: 'nominal_voltage', label: 'Nominal voltage', type: 'number', unit: 'V', min: 0 },
          { key: 'breaker_rating', label: 'Breaker rating', type: 'number', unit: 'A', min: 0 },
          { key: 'connected_customers', label: 'Connected customers', type: 'integer', min: 0 },
          { key: 'feeder', label: 'Feeder name', type: 'text' },
        ],
      },
    ],
  },
];

/**
 * Writes the default metadata template when there is none yet (idempotent: an existing template,
 * even an edited one, is left as it is). Returns whether it wrote.
 */
export async function seedMetadataTemplate(m: Pick<EntityManager, 'query'>): Promise<boolean> {
  if ((await metadataSectionCount(m)) > 0) return false;
  for (const [index, section] of DEFAULT_METADATA_TEMPLATE.entries()) {
    const section_id = await insertMetadataSection(m, {
      title: section.title,
      description: section.description,
      isPhaseSection: section.isPhaseSection ?? false,
      index,
    });
    for (const [section_index, fieldset] of section.fieldsets.entries()) {
      await insertMetadataFieldset(m, section_id, {
        title: fieldset.title,
        description: fieldset.description ?? null,
        data: JSON.stringify({ fields: fieldset.fields }),
        section_index,
      });
    }
  }
  return true;
}
