import { Chip } from '@mui/material';
import { Create, DataTable, Edit, List, ReferenceField, required, SelectInput, SimpleForm, useRecordContext, useTranslate } from 'react-admin';
import { NOTIFICATION_CHANNEL_SOURCES, NOTIFICATION_CHANNEL_STATUSES } from '../../../server/src/common/enums';
import { ListActions } from '../kit/ListActions';
import { CompanyInput, RowButtons } from './common';
import { EventEditToolbar } from './templates';

const sourceChoices = NOTIFICATION_CHANNEL_SOURCES.map((s) => ({ id: s, name: `portal.events.source.${s}` }));
const statusChoices = NOTIFICATION_CHANNEL_STATUSES.map((s) => ({ id: s, name: `portal.events.status.${s}` }));
// A channel becomes ACTIVE once confirmed; the back office only switches it on or off.
const editableStatusChoices = statusChoices.filter((c) => c.id !== 'PENDING');

const STATUS_COLOUR: Record<string, 'success' | 'warning' | 'default'> = { ACTIVE: 'success', PENDING: 'warning', DISABLED: 'default' };

function StatusField(_props: { source?: string; label?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const status = String(record.status);
  return <Chip size="small" variant="outlined" color={STATUS_COLOUR[status] ?? 'default'} label={translate(`portal.events.status.${status}`, { _: status })} data-status={status} />;
}

function SourceField(_props: { source?: string; label?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  return record ? <span>{translate(`portal.events.source.${String(record.source)}`, { _: String(record.source) })}</span> : null;
}

const filters = [
  <CompanyInput key="company_cuid" source="company_cuid" alwaysOn />,
  <SelectInput key="source" source="source" choices={sourceChoices} />,
  <SelectInput key="status" source="status" choices={statusChoices} />,
];

export function ChannelList() {
  return (
    <List actions={<ListActions />} filters={filters} sort={{ field: 'source', order: 'ASC' }} data-testid="channel-list">
      <DataTable rowClick={false} bulkActionButtons={false}>
        <DataTable.Col source="source">
          <SourceField />
        </DataTable.Col>
        <DataTable.Col source="status">
          <StatusField />
        </DataTable.Col>
        <DataTable.Col source="company_cuid" disableSort>
          <ReferenceField source="company_cuid" reference="company" link={false} />
        </DataTable.Col>
        <DataTable.Col label="" disableSort>
          <RowButtons />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

export function ChannelCreate() {
  return (
    <Create redirect="list">
      <SimpleForm>
        <SelectInput source="source" choices={sourceChoices} validate={required()} />
        <CompanyInput source="company_cuid" required />
      </SimpleForm>
    </Create>
  );
}

export function ChannelEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list">
      <SimpleForm toolbar={<EventEditToolbar />}>
        <SelectInput source="source" choices={sourceChoices} disabled />
        <SelectInput source="status" choices={editableStatusChoices} validate={required()} />
      </SimpleForm>
    </Edit>
  );
}
