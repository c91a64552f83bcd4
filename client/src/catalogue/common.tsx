import { Alert, Box, CircularProgress, Tab, Tabs } from '@mui/material';
import { type ComponentType, type ReactNode, useId, useState } from 'react';
import {
  AutocompleteInput,
  type AutocompleteInputProps,
  ReferenceField,
  ReferenceInput,
  useCanAccess,
  useDataProvider,
  useNotify,
  useResourceContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { JsonField } from '../kit/JsonField';
import { ENTITY_TYPE_KINDS, LOG_PARAMETER_TYPES } from '../../../shared/common/enums';
import { useInPhoneRow } from '../kit/ResponsiveDataTable';

/** Choices of the two catalogue enumerations (spec §4), labels translated under portal.catalogue.enum. */
export const ENTITY_TYPE_KIND_CHOICES = ENTITY_TYPE_KINDS.map((id) => ({ id, name: `portal.catalogue.enum.${id}` }));
export const LOG_PARAMETER_TYPE_CHOICES = LOG_PARAMETER_TYPES.map((id) => ({ id, name: `portal.catalogue.enum.${id}` }));

/**
 * The edit route of a catalogue record: the form for those who may change the resource, the
 * read-only page (with a notice) for those who may only look — never a form whose save fails.
 */
export function EditOrShow({ show: Show, children }: { show: ComponentType; children: ReactNode }) {
  const resource = useResourceContext();
  const translate = useTranslate();
  const { canAccess, isPending } = useCanAccess({ resource, action: 'edit' });
  if (isPending) return <CircularProgress size={24} sx={{ m: 3 }} />;
  if (!canAccess) {
    return (
      <>
        <Alert severity="info" sx={{ mt: 2 }} data-testid="read-only-notice">
          {translate('portal.catalogue.read_only')}
        </Alert>
        <Show />
      </>
    );
  }
  return <>{children}</>;
}

export interface TabDef {
  key: string;
  label: string;
  content: ReactNode;
}

/** Tabs of a record page (MUI: arrow keys move between tabs, Tab enters the panel). */
export function RecordTabs({ tabs }: { tabs: TabDef[] }) {
  const translate = useTranslate();
  const [current, setCurrent] = useState(tabs[0].key);
  const id = useId();
  return (
    <Box>
      <Tabs
        value={current}
        onChange={(_, value: string) => setCurrent(value)}
        aria-label={translate('portal.catalogue.tabs')}
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        {tabs.map((t) => (
          <Tab
            key={t.key}
            value={t.key}
            label={translate(t.label)}
            id={`${id}-tab-${t.key}`}
            aria-controls={`${id}-panel-${t.key}`}
            data-testid={`tab-${t.key}`}
          />
        ))}
      </Tabs>
      {tabs.map((t) => (
        <div key={t.key} role="tabpanel" hidden={current !== t.key} id={`${id}-panel-${t.key}`} aria-labelledby={`${id}-tab-${t.key}`}>
          {current === t.key && t.content}
        </div>
      ))}
    </Box>
  );
}

/**
 * The unit of a log parameter: an autocomplete over the units; those who may create units can
 * type a new symbol and pick "Create …" to add it on the way.
 */
export function UnitInput(props: { source?: string } & Partial<AutocompleteInputProps>) {
  const { source = 'unit_cuid', ...rest } = props;
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const { canAccess: canCreate } = useCanAccess({ resource: 'unit', action: 'create' });
  const onCreate = async (text?: string) => {
    const unit = (text ?? '').trim();
    if (!unit) return undefined;
    try {
      const { data } = await dataProvider.create<RaRecord>('unit', { data: { unit, unit_variants: [] } });
      notify('portal.catalogue.unit_created', { type: 'info', messageArgs: { unit } });
      return data;
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
      return undefined;
    }
  };
  return (
    <ReferenceInput source={source} reference="unit" sort={{ field: 'unit', order: 'ASC' }}>
      <AutocompleteInput optionText="unit" filterToQuery={(q: string) => ({ q })} onCreate={canCreate ? onCreate : undefined} {...rest} />
    </ReferenceInput>
  );
}

/** A manufacturer reference (show/list); text in a phone row (the row is the link). */
export const ManufacturerField = ({ source = 'manufacturer_cuid' }: { source?: string; label?: string }) => (
  <ReferenceField source={source} reference="manufacturer" link={useInPhoneRow() ? false : 'show'} emptyText="—" />
);

/** A JSON value as indented, read-only text (the kit's JsonField). */
export const JsonText = ({ source }: { source: string; label?: string }) => <JsonField source={source} />;
