import { Create, Edit, List, ReferenceField, ReferenceInput, AutocompleteInput, SearchInput, SimpleForm, TextInput, required, maxLength } from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { BulkActions } from '../kit/BulkActions';
import { ListActions } from '../kit/ListActions';
import { AccessDeleteButton, AccessEditButton, ReadOnlyGate } from '../kit/RecordButtons';
import { DecimalInput } from '../kit/DecimalInput';
import { CompanyInput, inRange } from './common';

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <ReferenceInput key="company" source="company_cuid" reference="company">
    <AutocompleteInput optionText="name" filterToQuery={(q) => ({ q })} />
  </ReferenceInput>,
];

export function SiteList() {
  return (
    <List filters={filters} sort={{ field: 'name', order: 'ASC' }} actions={<ListActions />} exporter={false}>
      <DataTable bulkActionButtons={<BulkActions />} rowClick={false}>
        <DataTable.Col source="name" />
        <DataTable.NumberCol source="lat" options={{ maximumFractionDigits: 6 }} />
        <DataTable.NumberCol source="long" options={{ maximumFractionDigits: 6 }} />
        <DataTable.Col source="company_cuid" disableSort>
          <ReferenceField source="company_cuid" reference="company" link={false} />
        </DataTable.Col>
        <DataTable.Col label="" disableSort>
          <AccessEditButton />
          <AccessDeleteButton />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

function SiteFields() {
  return (
    <>
      <TextInput source="name" validate={[required(), maxLength(200)]} />
      <DecimalInput source="lat" validate={inRange(-90, 90, 'portal.fleet.lat_range')} helperText="portal.fleet.lat_help" />
      <DecimalInput source="long" validate={inRange(-180, 180, 'portal.fleet.long_range')} helperText="portal.fleet.long_help" />
    </>
  );
}

export function SiteCreate() {
  return (
    <Create redirect="list">
      <SimpleForm>
        <CompanyInput />
        <SiteFields />
      </SimpleForm>
    </Create>
  );
}

export function SiteEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list">
      <ReadOnlyGate>
        {(readOnly) => (
          <SimpleForm toolbar={readOnly ? false : undefined}>
            <SiteFields />
          </SimpleForm>
        )}
      </ReadOnlyGate>
    </Edit>
  );
}

export const sites = { list: SiteList, create: SiteCreate, edit: SiteEdit, recordRepresentation: 'name' };
