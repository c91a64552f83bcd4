import { LocalTextField } from '../kit/LocalTextField';
import { FrenchInput } from '../kit/FrenchInput';
import {
  Create,
  Edit,
  List,
  ReferenceField,
  ReferenceInput,
  AutocompleteInput,
  SearchInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextInput,
  UrlField,
  required,
  useCanAccess,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { EditOrShow } from './common';
import { ListActions } from '../kit/ListActions';

/** Global (no company) or the owning company; the company's name only for those who may list companies. */
function ScopeField(_props: { label?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'company', action: 'show' });
  if (!record) return null;
  if (!record.company_cuid) return <span>{translate('portal.catalogue.global')}</span>;
  if (!canAccess) return <span>{translate('portal.catalogue.company_owned')}</span>;
  return <ReferenceField source="company_cuid" reference="company" link={false} />;
}

function useFilters() {
  const { canAccess } = useCanAccess({ resource: 'company', action: 'list' });
  return [
    <SearchInput key="q" source="q" alwaysOn />,
    ...(canAccess
      ? [
          <ReferenceInput key="company_cuid" source="company_cuid" reference="company">
            <AutocompleteInput optionText="name" filterToQuery={(q: string) => ({ q })} />
          </ReferenceInput>,
        ]
      : []),
  ];
}

export function ManufacturerList() {
  const filters = useFilters();
  return (
    <List actions={<ListActions />} filters={filters} sort={{ field: 'name', order: 'ASC' }} data-testid="manufacturer-list">
      <DataTable rowClick="show">
        <DataTable.Col source="name">
          <LocalTextField source="name" />
        </DataTable.Col>
        <DataTable.Col source="url" disableSort>
          <UrlField source="url" emptyText="—" onClick={(e) => e.stopPropagation()} />
        </DataTable.Col>
        <DataTable.Col source="company_cuid" disableSort>
          <ScopeField />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

export function ManufacturerShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <LocalTextField source="name" />
        <UrlField source="url" emptyText="—" />
        <ScopeField label="resources.manufacturer.fields.company_cuid" />
      </SimpleShowLayout>
    </Show>
  );
}

export function ManufacturerEdit() {
  return (
    <EditOrShow show={ManufacturerShow}>
      <Edit mutationMode="pessimistic" redirect="show">
        <SimpleForm>
          <TextInput source="name" validate={required()} />
          <FrenchInput source="name" />
          <TextInput source="url" type="url" />
        </SimpleForm>
      </Edit>
    </EditOrShow>
  );
}

export function ManufacturerCreate() {
  return (
    <Create redirect="show">
      <SimpleForm>
        <TextInput source="name" validate={required()} />
        <FrenchInput source="name" />
        <TextInput source="url" type="url" />
        <ReferenceInput source="company_cuid" reference="company">
          <AutocompleteInput optionText="name" filterToQuery={(q: string) => ({ q })} helperText="portal.catalogue.manufacturer_company_help" />
        </ReferenceInput>
      </SimpleForm>
    </Create>
  );
}
