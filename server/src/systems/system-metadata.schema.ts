import { type Translations, ZTranslationsRecord } from '../common/translations';
import { z } from 'zod';
import { boundedJson } from '../../../shared/common/zod-fields';

/** The field types a metadata template offers (docs/system-metadata.md). */
export const METADATA_FIELD_TYPES = ['text', 'number', 'integer', 'date', 'boolean', 'select'] as const;
/** The phases of a phase section (isPhaseSection): one entry per phase. */
export const METADATA_PHASES = ['L1', 'L2', 'L3'] as const;

export const ZMetadataField = z
  .object({
    key: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'Letters, digits and "_", starting with a letter (max 64)'),
    label: z.string().trim().min(1, 'Required').max(200),
    type: z.enum(METADATA_FIELD_TYPES),
    unit: z.string().trim().max(32).optional(),
    options: z.array(z.string().trim().min(1).max(200)).min(1).max(200).optional(),
    required: z.boolean().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    help: z.string().max(1000).optional(),
  })
  .strict()
  .superRefine((f, ctx) => {
    if (f.type === 'select' && !f.options) ctx.addIssue({ code: 'custom', path: ['options'], message: 'A select field needs options' });
    if (f.type !== 'select' && f.options) ctx.addIssue({ code: 'custom', path: ['options'], message: 'Only select fields have options' });
    if ((f.min !== undefined || f.max !== undefined) && f.type !== 'number' && f.type !== 'integer') {
      ctx.addIssue({ code: 'custom', path: ['min'], message: 'Only number and integer fields have min and max' });
    }
    if (f.min !== undefined && f.max !== undefined && f.min > f.max) ctx.addIssue({ code: 'custom', path: ['max'], message: 'max is below min' });
    if (f.options && new Set(f.options).size !== f.options.length) ctx.addIssue({ code: 'custom', path: ['options'], message: 'Options repeat' });
  });
export type TMetadataField = z.infer<typeof ZMetadataField>;

/** A fieldset's `data`: its fields, in display order. */
export const ZFieldsetData = boundedJson(
  z
    .object({ fields: z.array(ZMetadataField).max(200) })
    .strict()
    .superRefine((d, ctx) => {
      const seen = new Set<string>();
      d.fields.forEach((f, i) => {
        if (seen.has(f.key)) ctx.addIssue({ code: 'custom', path: ['fields', i, 'key'], message: 'This key is used twice in the fieldset' });
        seen.add(f.key);
      });
    }),
);

/** A system's metadata `data`: { [section_id]: { [fieldset_id]: { [key]: value } } } (phases add a level). */
export const ZMetadataData = boundedJson(z.record(z.string().max(32), z.unknown()));

export interface TemplateFieldset {
  fieldset_id: number;
  title: string;
  description: string | null;
  section_index: number;
  fields: TMetadataField[];
  /** French beside the English: `{ fr: { title, description, "field.<key>.label", "field.<key>.help" } }`. */
  translations: Translations;
}
export interface TemplateSection {
  section_id: number;
  title: string;
  description: string | null;
  isPhaseSection: boolean;
  index: number;
  fieldsets: TemplateFieldset[];
  translations: Translations;
}

export const ZTemplateSection = z.object({
  section_id: z.number(),
  title: z.string(),
  description: z.string().nullable(),
  isPhaseSection: z.boolean(),
  index: z.number(),
  translations: ZTranslationsRecord,
  fieldsets: z.array(
    z.object({
      fieldset_id: z.number(),
      title: z.string(),
      description: z.string().nullable(),
      section_index: z.number(),
      fields: z.array(ZMetadataField),
      translations: ZTranslationsRecord,
    }),
  ),
});

type Issue = { path: (string | number)[]; message: string };
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const empty = (v: unknown) => v === undefined || v === null || v === '';

function checkValue(field: TMetadataField, value: unknown): string | null {
  if (value === null) return null;
  switch (field.type) {
    case 'text':
      return typeof value === 'string' ? (value.length > 10_000 ? 'At most 10,000 characters' : null) : 'Text expected';
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'A number expected';
      if (field.type === 'integer' && !Number.isInteger(value)) return 'A whole number expected';
      if (field.min !== undefined && value < field.min) return `At least ${field.min}`;
      if (field.max !== undefined && value > field.max) return `At most ${field.max}`;
      return null;
    }
    case 'date': {
      if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'A date like 2026-11-21 expected';
      const d = new Date(`${value}T00:00:00Z`);
      return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value ? 'Not a calendar date' : null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : 'true or false expected';
    case 'select':
      return typeof value === 'string' && (field.options ?? []).includes(value) ? null : `One of: ${(field.options ?? []).join(', ')}`;
  }
}

function checkFieldsets(section: TemplateSection, value: unknown, path: (string | number)[], issues: Issue[]): void {
  if (!isObject(value)) {
    issues.push({ path, message: 'An object of fieldsets expected' });
    return;
  }
  for (const [fsKey, fsValue] of Object.entries(value)) {
    const fieldset = section.fieldsets.find((f) => String(f.fieldset_id) === fsKey);
    if (!fieldset) {
      issues.push({ path: [...path, fsKey], message: 'Unknown fieldset' });
      continue;
    }
    if (!isObject(fsValue)) {
      issues.push({ path: [...path, fsKey], message: 'An object of fields expected' });
      continue;
    }
    for (const [key, v] of Object.entries(fsValue)) {
      const field = fieldset.fields.find((f) => f.key === key);
      if (!field) {
        issues.push({ path: [...path, fsKey, key], message: 'Unknown field' });
        continue;
      }
      const problem = checkValue(field, v);
      if (problem) issues.push({ path: [...path, fsKey, key], message: problem });
    }
  }
  // Required fields need a value in every fieldset of the section (of the phase, for phase sections).
  for (const fieldset of section.fieldsets) {
    const given = value[String(fieldset.fieldset_id)];
    for (const field of fieldset.fields) {
      if (!field.required) continue;
      const v = isObject(given) && own(given, field.key) ? given[field.key] : undefined;
      if (empty(v)) issues.push({ path: [...path, String(fieldset.fieldset_id), field.key], message: 'Required' });
    }
  }
}

/**
 * Checks metadata `data` against the active template; issue paths start with `data` and name the
 * field: ['data', section_id, fieldset_id, key] or ['data', section_id, 'L1', fieldset_id, key].
 */
export function validateMetadata(template: readonly TemplateSection[], data: unknown): Issue[] {
  const issues: Issue[] = [];
  if (!isObject(data)) return [{ path: ['data'], message: 'An object of sections expected' }];
  for (const [sectionKey, value] of Object.entries(data)) {
    const section = template.find((s) => String(s.section_id) === sectionKey);
    if (!section) {
      issues.push({ path: ['data', sectionKey], message: 'Unknown section' });
      continue;
    }
    if (!section.isPhaseSection) {
      checkFieldsets(section, value, ['data', sectionKey], issues);
      continue;
    }
    if (!isObject(value)) {
      issues.push({ path: ['data', sectionKey], message: 'An object of phases (L1, L2, L3) expected' });
      continue;
    }
    for (const [phase, phaseValue] of Object.entries(value)) {
      if (!(METADATA_PHASES as readonly string[]).includes(phase)) issues.push({ path: ['data', sectionKey, phase], message: 'Unknown phase (L1, L2 or L3)' });
      else checkFieldsets(section, phaseValue, ['data', sectionKey, phase], issues);
    }
  }
  // Sections left out entirely: their required fields are still missing (phase sections: no phase given is fine).
  for (const section of template) {
    if (section.isPhaseSection || own(data, String(section.section_id))) continue;
    checkFieldsets(section, {}, ['data', String(section.section_id)], issues);
  }
  return issues;
}
