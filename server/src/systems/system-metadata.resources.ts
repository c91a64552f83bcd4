import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { ZName } from '../../../shared/common/zod-fields';
import { translationsInput, ZTranslationsRecord } from '../common/translations';
import { fieldError } from '../common/field-error';
import type { ResourceDefinition } from '../crud/resource';
import { ZFieldsetData, ZMetadataData } from './system-metadata.schema';
import { METADATA_SELECT_EXPRESSIONS, SystemMetadataRepository } from './system-metadata.repository';
import { SystemMetadataService } from './system-metadata.service';
import { resourceAccess } from '../../../shared/access/resources';

type Def = ResourceDefinition<z.ZodObject, z.ZodObject, z.ZodObject>;
const ZText = z.string().trim().max(10_000).nullable().optional();
/** French beside the template's English: titles, descriptions and each field's label and help (`field.<key>.label`). */
const ZSectionTr = translationsInput({ title: 200, description: 10_000 });
const ZFieldsetTr = translationsInput({ title: 200, description: 10_000 }, [
  { pattern: /^field\.[A-Za-z][A-Za-z0-9_]{0,63}\.label$/, max: 200 },
  { pattern: /^field\.[A-Za-z][A-Za-z0-9_]{0,63}\.help$/, max: 2_000 },
]);
/** Sections of the metadata form (a global catalogue: seen with metadata.view, changed by level 0). */
export const systemMetadataTemplateSectionResource: Def = {
  name: 'systemMetadataTemplateSection',
  table: 'system_metadata_template_section',
  key: 'section_id',
  generatedKey: 'database',
  record: z.object({
    section_id: z.number(),
    title: z.string(),
    description: z.string().nullable(),
    isPhaseSection: z.boolean(),
    index: z.number(),
    translations: ZTranslationsRecord,
  }),
  create: z.object({
    title: ZName,
    description: ZText,
    isPhaseSection: z.boolean().default(false),
    index: z.number().int().min(0).max(10_000).default(0),
    translations: ZSectionTr.default({}),
  }),
  update: z
    .object({ title: ZName, description: ZText, isPhaseSection: z.boolean(), index: z.number().int().min(0).max(10_000), translations: ZSectionTr })
    .partial(),
  ...resourceAccess('systemMetadataTemplateSection'),
  scope: { kind: 'global' },
  search: ['title', 'description'],
  filters: ['isPhaseSection'],
  sorts: ['index', 'title'],
  defaultSort: { field: 'index', order: 'ASC' },
};

/** Fieldsets of a section; `data` holds the field definitions (docs/system-metadata.md). */
export const systemMetadataTemplateFieldsetResource: Def = {
  name: 'systemMetadataTemplateFieldset',
  table: 'system_metadata_template_fieldset',
  key: 'fieldset_id',
  generatedKey: 'database',
  record: z.object({
    fieldset_id: z.number(),
    title: z.string(),
    description: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
    active: z.boolean(),
    section_index: z.number(),
    section_id: z.number(),
    translations: ZTranslationsRecord,
  }),
  create: z.object({
    title: ZName,
    description: ZText,
    data: ZFieldsetData,
    active: z.boolean().default(true),
    section_index: z.number().int().min(0).max(10_000).default(0),
    section_id: z.number().int().positive().max(2_147_483_647),
    translations: ZFieldsetTr.default({}),
  }),
  update: z
    .object({
      title: ZName,
      description: ZText,
      data: ZFieldsetData,
      active: z.boolean(),
      section_index: z.number().int().min(0).max(10_000),
      section_id: z.number().int().positive().max(2_147_483_647),
      translations: ZFieldsetTr,
    })
    .partial(),
  ...resourceAccess('systemMetadataTemplateFieldset'),
  scope: { kind: 'global' },
  search: ['title', 'description'],
  filters: ['section_id', 'active'],
  sorts: ['section_index', 'title', 'section_id'],
  defaultSort: { field: 'section_index', order: 'ASC' },
  beforeWrite: async (tx, actor, row) => {
    if (!(await new SystemMetadataRepository(tx.connection).sectionExists(actor, row.section_id, tx)))
      throw Object.assign(new TRPCError({ code: 'NOT_FOUND', message: 'Template section not found' }), { field: 'section_id' });
  },
};

/**
 * A system's filled-in metadata form (one row per system), checked against the active template
 * on every write. Spec §6: view 3, change 2 (owner company, or a share with change).
 */
export function systemMetadataResource(metadata: SystemMetadataService): Def {
  return {
    name: 'systemMetadata',
    table: 'system_metadata',
    key: 'metadata_cuid',
    generatedKey: true,
    record: z.object({ metadata_cuid: z.string(), system_cuid: z.string(), system_name: z.string().nullable(), data: z.record(z.string(), z.unknown()) }),
    create: z.object({ system_cuid: z.string().trim().min(1, 'Required').max(32), data: ZMetadataData.default({}) }),
    update: z.object({ data: ZMetadataData }).partial(),
    ...resourceAccess('systemMetadata'),
    scope: { kind: 'system', column: 'system_cuid' },
    search: [],
    filters: ['system_cuid'],
    sorts: ['system_cuid'],
    defaultSort: { field: 'system_cuid', order: 'ASC' },
    selectExpressions: METADATA_SELECT_EXPRESSIONS,
    beforeWrite: async (tx, actor, row, current) => {
      if (current && row.system_cuid !== current.system_cuid) throw fieldError(['data', 'system_cuid'], 'Metadata stays with its system');
      await metadata.assertValid(actor, row.data ?? {}, tx);
    },
  };
}

/** The metadata template's resources by router name (api/resource-routers.ts mounts them all). */
export const METADATA_TEMPLATE_RESOURCES = {
  systemMetadataTemplateSection: systemMetadataTemplateSectionResource,
  systemMetadataTemplateFieldset: systemMetadataTemplateFieldsetResource,
} as const;
