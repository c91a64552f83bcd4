import { Alert, Box, CircularProgress, Divider, Tab, Tabs, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  BooleanInput,
  DateInput,
  Form,
  maxValue,
  minValue,
  NumberInput,
  required,
  SaveButton,
  SelectInput,
  TextInput,
  Toolbar,
  useNotify,
  useTranslate,
  type Validator,
} from 'react-admin';
import { trpc } from '../trpc';

export const PHASES = ['L1', 'L2', 'L3'] as const;

export interface MetadataField {
  key: string;
  label: string;
  type: 'text' | 'number' | 'integer' | 'date' | 'boolean' | 'select';
  unit?: string;
  options?: (string | { value: string; label?: string })[];
  required?: boolean;
  min?: number;
  max?: number;
}
export interface MetadataFieldset {
  fieldset_id: string;
  title: string;
  description?: string | null;
  data: { fields: MetadataField[] };
  active: boolean;
  section_index: number;
}
export interface MetadataSection {
  section_id: string;
  title: string;
  description?: string | null;
  isPhaseSection: boolean;
  index: number;
  fieldsets: MetadataFieldset[];
}
export interface SystemMetadataView {
  template: MetadataSection[];
  data: Record<string, unknown>;
  metadata_cuid: string | null;
  canChange: boolean;
}

type MetadataApi = {
  forSystem: { query(input: { system_cuid: string }): Promise<SystemMetadataView> };
  save: { mutate(input: { system_cuid: string; data: Record<string, unknown> }): Promise<unknown> };
};
const api = () => (trpc as unknown as { systemMetadata: MetadataApi }).systemMetadata;

/**
 * Where a value lives in the metadata (docs/system-metadata.md):
 * data[section_id][fieldset_id][key]; a phase section holds one entry per phase,
 * data[section_id][phase][fieldset_id][key].
 */
export function metadataPath(section: string, fieldset: string, key: string, phase?: string): string {
  return phase ? `${section}.${phase}.${fieldset}.${key}` : `${section}.${fieldset}.${key}`;
}

const integer: Validator = (v: unknown) => (v === null || v === undefined || v === '' || Number.isInteger(v) ? undefined : 'portal.fleet.metadata.integer');

function MetadataInput({ field, source, readOnly }: { field: MetadataField; source: string; readOnly: boolean }) {
  const label = field.unit ? `${field.label} (${field.unit})` : field.label;
  const validate: Validator[] = [];
  if (field.required && field.type !== 'boolean') validate.push(required());
  if (typeof field.min === 'number') validate.push(minValue(field.min));
  if (typeof field.max === 'number') validate.push(maxValue(field.max));
  const common = { source, label, readOnly, disabled: readOnly, validate, helperText: false as const };
  switch (field.type) {
    case 'number':
      return <NumberInput {...common} />;
    case 'integer':
      return <NumberInput {...common} step={1} validate={[...validate, integer]} />;
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
  return (
    <>
      {section.fieldsets
        .filter((f) => f.active)
        .map((fs) => (
          <Box key={fs.fieldset_id} component="fieldset" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, mb: 2 }}>
            <Typography component="legend" variant="subtitle2" sx={{ px: 0.5 }}>
              {fs.title}
            </Typography>
            {fs.description ? (
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {fs.description}
              </Typography>
            ) : null}
            <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', columnGap: 2 }}>
              {(fs.data?.fields ?? []).map((field) => (
                <MetadataInput key={field.key} field={field} readOnly={readOnly} source={metadataPath(section.section_id, fs.fieldset_id, field.key, phase)} />
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
  const notify = useNotify();
  const queryClient = useQueryClient();
  const queryKey = ['systemMetadata', 'forSystem', systemCuid];
  const { data, isPending, error } = useQuery({ queryKey, queryFn: () => api().forSystem.query({ system_cuid: systemCuid }) });
  if (isPending) return <CircularProgress size={24} sx={{ m: 3 }} />;
  if (error || !data) return <Alert severity="error">{error instanceof Error ? error.message : translate('ra.notification.http_error')}</Alert>;
  const readOnly = !data.canChange;
  const sections = [...data.template].sort((a, b) => a.index - b.index);
  const onSubmit = async (values: Record<string, unknown>) => {
    try {
      await api().save.mutate({ system_cuid: systemCuid, data: values });
      await queryClient.invalidateQueries({ queryKey });
      notify('portal.fleet.metadata.saved', { type: 'info' });
    } catch (err) {
      notify(err instanceof Error ? err.message : String(err), { type: 'error' });
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
      <Form defaultValues={data.data ?? {}} onSubmit={onSubmit} disabled={readOnly}>
        {sections.map((section, i) => (
          <Box key={section.section_id} sx={{ mb: 2 }}>
            {i > 0 ? <Divider sx={{ mb: 2 }} /> : null}
            <Typography variant="h6">{section.title}</Typography>
            {section.description ? (
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {section.description}
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
