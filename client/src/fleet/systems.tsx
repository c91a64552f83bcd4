import { Box, Button, Card, Tab, Tabs } from '@mui/material';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import {
  AutocompleteInput,
  Create,
  DateInput,
  EditBase,
  maxLength,
  ReferenceInput,
  required,
  SimpleForm,
  TextInput,
  Title,
  useEditContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { ReadOnlyGate } from '../kit/RecordButtons';
import { CompanyInput, emptyToNull, TIMEZONE_CHOICES } from './common';
import { SystemMetadataPanel } from './SystemMetadata';
import { SystemSharingPanel } from './SystemSharing';
import { useSystemPrefetch } from '../systems/prefetch';

/** Site of a system: only the owner company's sites (the server checks it too). */
function SiteInput({ companyCuid }: { companyCuid?: string }) {
  return (
    <ReferenceInput source="site_cuid" reference="site" filter={companyCuid ? { company_cuid: companyCuid } : {}} sort={{ field: 'name', order: 'ASC' }}>
      <AutocompleteInput optionText="name" filterToQuery={(q) => ({ q })} parse={emptyToNull} />
    </ReferenceInput>
  );
}

function SystemFields({ companyCuid }: { companyCuid?: string }) {
  return (
    <>
      <TextInput source="name" validate={[required(), maxLength(200)]} />
      <SiteInput companyCuid={companyCuid} />
      <AutocompleteInput source="timezone" choices={TIMEZONE_CHOICES} validate={required()} />
      <DateInput source="deployment_date" parse={emptyToNull} />
      <TextInput source="asset_number" validate={maxLength(100)} parse={emptyToNull} />
    </>
  );
}

export function SystemCreate() {
  return (
    <Create redirect="edit">
      <SimpleForm defaultValues={{ timezone: 'UTC' }}>
        <CompanyInput />
        <CreateSystemFields />
      </SimpleForm>
    </Create>
  );
}

/** The site list follows the chosen company. */
function CreateSystemFields() {
  const companyCuid = useWatch({ name: 'company_cuid' }) as string | undefined;
  return <SystemFields companyCuid={companyCuid} />;
}

/**
 * Only what the user changed goes to the server: a partner company editing a shared system
 * cannot see the owner's site, so sending it back unchanged would only be refused.
 */
export function changedOnly(data: Record<string, unknown>, options?: { previousData?: Record<string, unknown> }) {
  const before = options?.previousData;
  if (!before) return data;
  return Object.fromEntries(Object.entries(data).filter(([k, v]) => JSON.stringify(v ?? null) !== JSON.stringify(before[k] ?? null)));
}

/**
 * /system/:id: the system's details, its shares with partner companies and its metadata, as
 * tabs (arrow keys move between tabs). What the user may not change is read-only.
 */
export function SystemEdit() {
  return (
    <EditBase mutationMode="pessimistic" redirect={false} transform={changedOnly}>
      <SystemEditView />
    </EditBase>
  );
}

function SystemEditView() {
  const translate = useTranslate();
  const { record } = useEditContext<RaRecord>();
  const [tab, setTab] = useState(0);
  const prefetch = useSystemPrefetch<HTMLAnchorElement>(record ? String(record.id) : undefined);
  if (!record) return null;
  return (
    <Box sx={{ mt: 1 }}>
      <Title title={String(record.name ?? '')} />
      {/* The monitoring page of this system (issue 13), which links back here. */}
      <Button
        ref={prefetch}
        component={RouterLink}
        to={`/systems/${encodeURIComponent(String(record.id))}`}
        variant="outlined"
        size="small"
        sx={{ mb: 1 }}
        data-testid="system-monitoring-link"
      >
        {translate('portal.system_page.monitoring')}
      </Button>
      <Card>
        <Tabs value={tab} onChange={(_, v: number) => setTab(v)} aria-label={String(record.name ?? '')}>
          <Tab label={translate('portal.fleet.tabs.details')} id="system-tab-0" aria-controls="system-panel-0" data-testid="tab-details" />
          <Tab label={translate('portal.fleet.tabs.sharing')} id="system-tab-1" aria-controls="system-panel-1" data-testid="tab-sharing" />
          <Tab label={translate('portal.fleet.tabs.metadata')} id="system-tab-2" aria-controls="system-panel-2" data-testid="tab-metadata" />
        </Tabs>
        <Box role="tabpanel" id={`system-panel-${tab}`} aria-labelledby={`system-tab-${tab}`}>
          {tab === 0 ? (
            <ReadOnlyGate>
              {(readOnly) => (
                <SimpleForm toolbar={readOnly ? false : undefined}>
                  <SystemFields companyCuid={String(record.company_cuid ?? '')} />
                </SimpleForm>
              )}
            </ReadOnlyGate>
          ) : tab === 1 ? (
            <SystemSharingPanel system={record} />
          ) : (
            <SystemMetadataPanel systemCuid={String(record.id)} />
          )}
        </Box>
      </Card>
    </Box>
  );
}
