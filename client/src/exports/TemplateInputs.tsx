import { useFormat } from '../i18n/useFormat';
import { localText } from '../i18n/localText';
import { Alert, Typography } from '@mui/material';
import {
  ArrayInput,
  FormDataConsumer,
  maxLength,
  ReferenceArrayInput,
  required,
  SelectArrayInput,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { EXPORT_AGGREGATES, EXPORT_FREQUENCIES, EXPORT_RESOLUTIONS } from '../../../shared/exports/export-config.schema';
import { type Latest, useChannelDetails, useSystemDevices } from './api';
import { textOf } from '../../../shared/common/text';

const T = 'portal.exports';

/** An e-mail channel as its address (the channel list itself does not carry it). */
function ChannelLabel({ record }: { record?: { channel_cuid: string } }) {
  const details = useChannelDetails(record?.channel_cuid);
  return <span>{details.data?.email?.email ?? record?.channel_cuid ?? ''}</span>;
}

/**
 * The inputs of an export template's config (ZExportConfig) as a form, never JSON: columns (a
 * device of the system, a parameter that device logs, an optional title, the aggregate),
 * resolution, default format, decimal and zone, and an optional e-mail schedule. Server field
 * errors (`config.columns.2.parameter_id` …) land on the matching input.
 */
export function TemplateConfigInputs() {
  const translate = useTranslate();
  const { locale } = useFormat();
  const systemCuid = useWatch({ name: 'system_cuid' }) as string | undefined;
  const latest = useSystemDevices(systemCuid);
  const devices: Latest['devices'] = latest.data?.devices ?? [];
  const frequency = useWatch({ name: 'config.schedule.frequency' }) as string | null | undefined;
  const choices = (values: readonly string[], key: string) => values.map((id) => ({ id, name: translate(`${T}.${key}.${id}`) }));

  return (
    <>
      <Typography variant="subtitle1" component="h2" sx={{ mt: 1 }}>
        {translate(`${T}.columns`)}
      </Typography>
      {!systemCuid && <Alert severity="info">{translate(`${T}.pick_system_first`)}</Alert>}
      {systemCuid && latest.data && devices.length === 0 && <Alert severity="warning">{translate(`${T}.no_devices`)}</Alert>}
      <ArrayInput source="config.columns" label={false} data-testid="template-columns">
        <SimpleFormIterator inline disableReordering>
          <SelectInput
            source="entity_cuid"
            label={`${T}.column_device`}
            choices={devices.map((d) => ({ id: d.entity_cuid, name: d.name }))}
            validate={required()}
            sx={{ minWidth: 200 }}
            slotProps={{ htmlInput: { 'data-testid': 'column-device' } }}
          />
          <FormDataConsumer>
            {({ scopedFormData }) => {
              const device = devices.find((d) => d.entity_cuid === scopedFormData?.entity_cuid);
              return (
                <SelectInput
                  source="parameter_id"
                  label={`${T}.column_parameter`}
                  choices={(device?.parameters ?? []).map((p) => ({
                    id: p.parameter_id,
                    name: `${localText(p, 'description', locale) ?? p.parameter_id}${p.unit ? ` (${p.unit})` : ''}`,
                  }))}
                  validate={required()}
                  disabled={!device}
                  sx={{ minWidth: 220 }}
                />
              );
            }}
          </FormDataConsumer>
          <TextInput source="label" label={`${T}.column_label`} validate={maxLength(120)} />
          <SelectInput
            source="aggregate"
            label={`${T}.column_aggregate`}
            choices={choices(EXPORT_AGGREGATES, 'aggregates')}
            defaultValue="avg"
            validate={required()}
          />
        </SimpleFormIterator>
      </ArrayInput>
      <SelectInput
        source="config.resolution"
        label={`${T}.resolution`}
        choices={choices(EXPORT_RESOLUTIONS, 'resolutions')}
        defaultValue="raw"
        validate={required()}
      />
      <SelectInput
        source="config.format"
        label={`${T}.default_format`}
        choices={choices(['csv', 'xlsx'], 'formats')}
        defaultValue="csv"
        validate={required()}
      />
      <SelectInput
        source="config.decimal"
        label={`${T}.default_decimal`}
        choices={[
          { id: '.', name: translate(`${T}.decimals.dot`) },
          { id: ',', name: translate(`${T}.decimals.comma`) },
        ]}
        defaultValue="."
        validate={required()}
      />
      <TextInput source="config.timezone" label={`${T}.default_timezone`} validate={maxLength(64)} />
      <Typography variant="subtitle1" component="h2" sx={{ mt: 1 }}>
        {translate(`${T}.schedule`)}
      </Typography>
      <SelectInput
        source="config.schedule.frequency"
        label={`${T}.frequency`}
        choices={choices(EXPORT_FREQUENCIES, 'frequencies')}
        emptyText={`${T}.frequencies.none`}
        emptyValue=""
      />
      {frequency && (
        <ReferenceArrayInput source="config.schedule.recipients" reference="notificationChannel" filter={{ source: 'EMAIL', status: 'ACTIVE' }}>
          <SelectArrayInput label={`${T}.recipients`} optionText={<ChannelLabel />} validate={required()} sx={{ minWidth: 280 }} />
        </ReferenceArrayInput>
      )}
    </>
  );
}

/** The form's values made into the stored config: empty titles, zone and schedule left out. */
export function cleanTemplate<T extends { config?: unknown }>(data: T): T {
  const config = (data.config ?? {}) as Record<string, unknown>;
  const columns = Array.isArray(config.columns)
    ? config.columns.map((c: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(c).filter(([k, v]) => !(k === 'label' && (v === '' || v === null || v === undefined)))),
      )
    : [];
  const schedule = config.schedule as { frequency?: string; recipients?: string[] } | null | undefined;
  const out: Record<string, unknown> = {
    ...config,
    columns,
    schedule: schedule?.frequency ? { frequency: schedule.frequency, recipients: schedule.recipients ?? [] } : null,
  };
  if (!out.timezone) delete out.timezone;
  return { ...data, config: out };
}

/** A new template's starting values. */
export const NEW_TEMPLATE_CONFIG = { columns: [], resolution: 'raw', format: 'csv', decimal: '.', schedule: null };

/** A template's config in a list: "3 columns · 1 hour · CSV · Daily (yesterday)". */
export function TemplateSummaryField() {
  const translate = useTranslate();
  const record = useRecordContext<{ config?: Record<string, unknown> }>();
  const c = record?.config ?? {};
  const columns = Array.isArray(c.columns) ? c.columns.length : 0;
  const schedule = c.schedule as { frequency?: string } | null | undefined;
  const parts = [
    translate(`${T}.column_count`, { smart_count: columns }),
    translate(`${T}.resolutions.${textOf(c.resolution ?? 'raw')}`),
    textOf(c.format ?? 'csv').toUpperCase(),
    ...(schedule?.frequency ? [translate(`${T}.frequencies.${schedule.frequency}`)] : []),
  ];
  return <span data-testid="template-summary">{parts.join(' · ')}</span>;
}
