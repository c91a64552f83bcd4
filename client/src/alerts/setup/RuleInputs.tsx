import { Box, Typography } from '@mui/material';
import { AutocompleteInput, ReferenceInput, SelectInput, TextInput, useLocaleState, useTranslate } from 'react-admin';
import { localText } from '../../i18n/localText';
import { DecimalInput } from '../../kit/DecimalInput';
import { useWatch } from 'react-hook-form';
import { RULE_KINDS } from '../../../../shared/alerts/rules';
import { PLACEHOLDER_LIST } from './rule-form';

/** Durations are whole seconds. */
const seconds = { integer: true } as const;

/**
 * The rule of a trigger (`args`), one set of inputs per kind instead of raw JSON. With `template`
 * the device is left out (the engine fills in each device of the template's type) and there is no
 * offline rule. Validated by the form with ZTriggerRule / ZTemplateRule (rule-form.ts).
 */
export function RuleInputs({ template = false }: { template?: boolean }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const kind = useWatch({ name: 'args.kind' }) as string | undefined;
  const system_cuid = useWatch({ name: 'system_cuid' }) as string | undefined;
  const kinds = RULE_KINDS.filter((k) => !(template && k === 'offline')).map((k) => ({ id: k, name: `portal.rules.kinds.${k}` }));
  const device =
    template || kind === 'offline' || !kind ? null : (
      <ReferenceInput source="args.entity_cuid" reference="entity" filter={system_cuid ? { system_cuid } : {}}>
        <AutocompleteInput
          label="portal.rules.device"
          optionText="name"
          filterToQuery={(q: string) => ({ q })}
          disabled={!system_cuid}
          helperText={system_cuid ? false : 'portal.rules.pick_system'}
          sx={{ minWidth: 280 }}
        />
      </ReferenceInput>
    );
  const parameter = (
    <ReferenceInput source="args.parameter_id" reference="logParameter">
      <AutocompleteInput
        label="portal.rules.parameter"
        optionText={(p: { parameter_id?: string; description?: string | null }) => {
          const name = p ? localText(p, 'description', locale) : null;
          return p ? `${p.parameter_id ?? ''}${name ? ` — ${name}` : ''}` : '';
        }}
        filterToQuery={(q: string) => ({ q })}
        sx={{ minWidth: 280 }}
      />
    </ReferenceInput>
  );
  return (
    <Box data-testid="rule-inputs" sx={{ display: 'flex', flexDirection: 'column', width: '100%' }}>
      <SelectInput source="args.kind" label="portal.rules.kind" choices={kinds} data-testid="rule-kind" sx={{ minWidth: 220 }} />
      {device}
      {kind === 'threshold' && (
        <>
          {parameter}
          <SelectInput
            source="args.op"
            label="portal.rules.op"
            choices={[
              { id: 'above', name: 'portal.rules.ops.above' },
              { id: 'below', name: 'portal.rules.ops.below' },
            ]}
          />
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            <DecimalInput source="args.value" label="portal.rules.value" />
            <DecimalInput source="args.release_value" label="portal.rules.release_value" />
          </Box>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            <DecimalInput source="args.for_seconds" label="portal.rules.for_seconds" {...seconds} />
            <DecimalInput source="args.release_for_seconds" label="portal.rules.release_for_seconds" {...seconds} />
          </Box>
        </>
      )}
      {kind === 'no_data' && (
        <>
          {parameter}
          <DecimalInput source="args.after_seconds" label="portal.rules.after_seconds" {...seconds} />
        </>
      )}
      {kind === 'offline' && (
        <>
          <ReferenceInput source="args.controller_id" reference="controller" filter={system_cuid ? { system_cuid } : {}}>
            <AutocompleteInput label="portal.rules.controller" optionText="name" filterToQuery={(q: string) => ({ q })} sx={{ minWidth: 280 }} />
          </ReferenceInput>
          <DecimalInput source="args.after_seconds" label="portal.rules.after_seconds" {...seconds} />
        </>
      )}
      {kind === 'state' && (
        <>
          <TextInput source="args.key" label="portal.rules.key" />
          <SelectInput
            source="args.op"
            label="portal.rules.op"
            choices={[
              { id: 'equals', name: 'portal.rules.ops.equals' },
              { id: 'differs', name: 'portal.rules.ops.differs' },
            ]}
          />
          <TextInput
            source="args.value"
            label="portal.rules.state_value"
            format={(v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v))}
          />
          <DecimalInput source="args.for_seconds" label="portal.rules.for_seconds" {...seconds} />
        </>
      )}
      <Typography variant="caption" color="text.secondary" sx={{ mb: 2 }} data-testid="rule-placeholders">
        {translate('portal.rules.placeholders', { list: PLACEHOLDER_LIST })}
      </Typography>
    </Box>
  );
}
