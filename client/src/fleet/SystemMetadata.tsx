import { localText } from '../i18n/localText';
import { Alert, Box, CircularProgress, Divider, Tab, Tabs, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  BooleanInput,
  DateInput,
  Form,
  maxValue,
  minValue,
  required,
  SaveButton,
  SelectInput,
  TextInput,
  Toolbar,
  useNotify,
  useLocaleState,
  useTranslate,
  type Validator,
} from 'react-admin';
import { DecimalInput } from '../kit/DecimalInput';
import { type MetadataField, type MetadataFieldset, type MetadataSection, systemMetadataKey, useSaveSystemMetadata, useSystemMetadata } from './api';
import { ownEntry } from '../../../shared/common/own-entry';

export const PHASES = ['L1', 'L2', 'L3'] as const;

/**
 * Where a value lives in the FORM: the metadata's ids are numbers (docs/system-metadata.md), which
 * a form library would take for array indexes, so they get a letter: s<section>.f<fieldset>.key,
 * phase sections s<section>.L1.f<fieldset>.key.
 */
export function metadataPath(section: string | number, fieldset: string | number, key: string, phase?: string): string {
  return phase ? `s${section}.${phase}.f${fieldset}.${key}` : `s${section}.f${fieldset}.${key}`;
}

const fieldsOf = (fs: MetadataFieldset): MetadataField[] => fs.fields ?? fs.data?.fields ?? [];
const empty = (v: unknown) => v === undefined || v === null || v === '' || (typeof v === 'number' && Number.isNaN(v));

/** One level of the metadata (sections, phases, fieldsets, fields), in the data and in the form. */
type Level = Record<string, unknown>;

/** Stored data → form values (only what the active template knows). */
export function toFormValues(template: MetadataSection[], data: Level): Level {
  const out: Level = {};
  for (const section of template) {
    const stored = (ownEntry(data, String(section.section_id)) ?? {}) as Level;
    const fill = (source: Level) => {
      const o: Level = {};
      for (const fs of section.fieldsets.filter((f) => f.active !== false)) {
        const values = (ownEntry(source, String(fs.fieldset_id)) ?? {}) as Level;
        o[`f${fs.fieldset_id}`] = Object.fromEntries(fieldsOf(fs).map((f) => [f.key, ownEntry(values, f.key) ?? null]));
      }
      return o;
    };
    out[`s${section.section_id}`] = section.isPhaseSection
      ? Object.fromEntries(PHASES.map((p) => [p, fill((ownEntry(stored, p) ?? {}) as Level)]))
      : fill(stored);
  }
  return out;
}

/**
 * Form values → the data to save: the active template's fields only (keys of removed fields are
 * left out, as the server asks), empty values dropped, a phase nobody filled in left out.
 */
export function fromFormValues(template: MetadataSection[], values: Level): Level {
  const out: Level = {};
  for (const section of template) {
    const form = (values?.[`s${section.section_id}`] ?? {}) as Level;
    const collect = (source: Level | undefined) => {
      const o: Record<string, Record<string, unknown>> = {};
      let any = false;
      for (const fs of section.fieldsets.filter((f) => f.active !== false)) {
        const fv = (ownEntry(source, `f${fs.fieldset_id}`) ?? {}) as Level;
        const kept: Record<string, unknown> = {};
        for (const field of fieldsOf(fs)) {
          const v = ownEntry(fv, field.key);
          if (!empty(v)) {
            kept[field.key] = v;
            any = true;
          }
        }
        o[String(fs.fieldset_id)] = kept;
      }
      return { o, any };
    };
    if (section.isPhaseSection) {
      const phases: Record<string, unknown> = {};
      for (const p of PHASES) {
        const { o, any } = collect(form[p] as Level | undefined);
        if (any) phases[p] = o;
      }
      out[String(section.section_id)] = phases;
    } else {
      out[String(section.section_id)] = collect(form).o;
    }
  }
  return out;
}

const integer: Validator = (v: unknown) => (v === null || v === undefined || v === '' || Number.isInteger(v) ? undefined : 'portal.fleet.metadata.integer');

/** A field's label in the reader's language: the fieldset's `field.<key>.label` French, else its English. */
const fieldLabel = (fs: MetadataFieldset, field: MetadataField, locale: string): string =>
  localText({ translations: fs.translations, [`field.${field.key}.label`]: field.label }, `field.${field.key}.label`, locale) ?? field.label;

function MetadataInput({ field, source, readOnly, phase, text }: { field: MetadataField; source: string; readOnly: boolean; phase?: string; text: string }) {
  const label = field.unit ? `${text} (${field.unit})` : text;
  const validate: Validator[] = [];
  // In a phase section a phase left empty is fine (single-phase systems): the server checks those.
  if (field.required && field.type !== 'boolean' && !phase) validate.push(required());
  if (typeof field.min === 'number') validate.push(minValue(field.min));
  if (typeof field.max === 'number') validate.push(maxValue(field.max));
  const common = { source, label, readOnly, disabled: readOnly, validate, helperText: false as const };
  switch (field.type) {
    case 'number':
      return <DecimalInput {...common} />;
    case 'integer':
      return <DecimalInput {...common} integer validate={[...validate, integer]} />;
    case 'date':
      return <DateInput {...common} />;
    case 'boolean':
      return <BooleanInput source={source} label={label} readOnly={readOnly} disabled={readOnly} helperText={false} />;
    case 'select':
      return (
        <SelectInput
          {...common}
          choices={(field.options ?? []).map((o) => (typeof o === 'string' ? { id: o, name: o } : { id: o.value, name: o.label ?? o.value }))}
          translateChoice={false}
        />
      );
    default:
      return <TextInput {...common} />;
  }
}

function Fieldsets({ section, readOnly, phase }: { section: MetadataSection; readOnly: boolean; phase?: string }) {
  const [locale] = useLocaleState();
  return (
    <>
      {section.fieldsets
        .filter((f) => f.active !== false)
        .map((fs) => (
          <Box key={fs.fieldset_id} component="fieldset" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, mb: 2 }}>
            <Typography component="legend" variant="subtitle2" sx={{ px: 0.5 }}>
              {localText(fs, 'title', locale)}
            </Typography>
            {fs.description ? (
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {localText(fs, 'description', locale)}
              </Typography>
            ) : null}
            <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', columnGap: 2 }}>
              {fieldsOf(fs).map((field) => (
                <MetadataInput
                  key={field.key}
                  field={field}
                  text={fieldLabel(fs, field, locale)}
                  readOnly={readOnly}
                  phase={phase}
                  source={metadataPath(section.section_id, fs.fieldset_id, field.key, phase)}
                />
              ))}
            </Box>
          </Box>
        ))}
    </>
  );
}

function PhaseSection({ section, readOnly }: { section: MetadataSection; readOnly: boolean }) {
  const [phase, setPhase] = useState(0);
  return (
    <>
      <Tabs value={phase} onChange={(_, v: number) => setPhase(v)} aria-label={section.title} sx={{ mb: 1 }}>
        {PHASES.map((p) => (
          <Tab key={p} label={p} />
        ))}
      </Tabs>
      {/* Every phase stays mounted (hidden), so values typed in one phase survive a tab change. */}
      {PHASES.map((p, i) => (
        <Box key={p} hidden={i !== phase} role="tabpanel">
          <Fieldsets section={section} readOnly={readOnly} phase={p} />
        </Box>
      ))}
    </>
  );
}

/** The system's metadata as a form generated from the template; read-only when !canChange. */
export function SystemMetadataPanel({ systemCuid }: { systemCuid: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { data, isPending, error } = useSystemMetadata(systemCuid);
  const save = useSaveSystemMetadata();
  if (isPending) return <CircularProgress size={24} sx={{ m: 3 }} />;
  if (error || !data) return <Alert severity="error">{error instanceof Error ? error.message : translate('ra.notification.http_error')}</Alert>;
  const readOnly = !data.canChange;
  const sections = [...data.template].sort((a, b) => a.index - b.index);
  const onSubmit = async (values: Record<string, unknown>) => {
    try {
      await save.mutateAsync({ system_cuid: systemCuid, data: fromFormValues(sections, values) });
      await queryClient.invalidateQueries({ queryKey: systemMetadataKey(systemCuid) });
      notify('portal.fleet.metadata.saved', { type: 'info' });
    } catch (err) {
      // Field errors name data.<section>.<fieldset>.<key> (or data.<section>.<phase>.…): shown with their labels.
      const fieldErrors = ((err as { data?: { fieldErrors?: { path: string; message: string }[] } }).data?.fieldErrors ?? []).map(
        (f) => `${labelOf(sections, f.path)}: ${f.message}`,
      );
      notify(fieldErrors.length ? fieldErrors.join('; ') : err instanceof Error ? err.message : String(err), { type: 'error', multiLine: true });
    }
  };
  return (
    <Box sx={{ p: 2 }} data-testid="metadata-panel" data-readonly={readOnly ? 'true' : 'false'}>
      {readOnly ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('portal.kit.access.read_only')}
        </Alert>
      ) : null}
      {sections.length === 0 ? <Typography>{translate('portal.fleet.metadata.empty')}</Typography> : null}
      <Form defaultValues={toFormValues(sections, data.data ?? {})} onSubmit={onSubmit} disabled={readOnly}>
        {sections.map((section, i) => (
          <Box key={section.section_id} sx={{ mb: 2 }}>
            {i > 0 ? <Divider sx={{ mb: 2 }} /> : null}
            <Typography variant="h6">{localText(section, 'title', locale)}</Typography>
            {section.description ? (
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {localText(section, 'description', locale)}
              </Typography>
            ) : null}
            {section.isPhaseSection ? <PhaseSection section={section} readOnly={readOnly} /> : <Fieldsets section={section} readOnly={readOnly} />}
          </Box>
        ))}
        {!readOnly && sections.length > 0 ? (
          <Toolbar>
            <SaveButton alwaysEnable />
          </Toolbar>
        ) : null}
      </Form>
    </Box>
  );
}

/** "data.3.7.connections" or "data.5.L1.9.feeder" → the field's label (and phase). */
function labelOf(template: MetadataSection[], path: string): string {
  const parts = path.split('.').filter((p) => p !== 'data');
  const section = template.find((s) => String(s.section_id) === parts[0]);
  if (!section) return path;
  const phase = section.isPhaseSection ? parts[1] : undefined;
  const [fsId, key] = section.isPhaseSection ? parts.slice(2) : parts.slice(1);
  const fieldset = section.fieldsets.find((f) => String(f.fieldset_id) === fsId);
  const field = fieldset ? fieldsOf(fieldset).find((f) => f.key === key) : undefined;
  return [section.title, phase, field?.label ?? key].filter(Boolean).join(' › ');
}
