import { LocalTextField } from '../kit/LocalTextField';
import { FrenchInput } from '../kit/FrenchInput';
import { Create, Edit, List, SearchInput, Show, SimpleForm, SimpleShowLayout, TextInput, required } from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { ParameterAssignments } from './assignments';
import { EditOrShow, RecordTabs } from './common';
import { ListActions } from '../kit/ListActions';

const filters = [<SearchInput key="q" source="q" alwaysOn />];

export function EntityCategoryList() {
  return (
    <List actions={<ListActions />} filters={filters} sort={{ field: 'name', order: 'ASC' }}>
      <DataTable rowClick="show">
        <DataTable.Col source="name">
          <LocalTextField source="name" />
        </DataTable.Col>
        <DataTable.Col source="description" disableSort>
          <LocalTextField source="description" />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

const tabs = (first: React.ReactNode) => [
  { key: 'details', label: 'portal.catalogue.tab_details', content: first },
  {
    key: 'parameters',
    label: 'portal.catalogue.tab_parameters',
    content: <ParameterAssignments resource="entityCategoryLogParameterAssignment" target="entitycategory_cuid" />,
  },
];

export function EntityCategoryShow() {
  return (
    <Show>
      <RecordTabs
        tabs={tabs(
          <SimpleShowLayout>
            <LocalTextField source="name" />
            <LocalTextField source="description" emptyText="—" />
          </SimpleShowLayout>,
        )}
      />
    </Show>
  );
}

const inputs = (
  <>
    <TextInput source="name" validate={required()} />
    <FrenchInput source="name" />
    <TextInput source="description" multiline />
    <FrenchInput source="description" multiline />
  </>
);

export function EntityCategoryEdit() {
  return (
    <EditOrShow show={EntityCategoryShow}>
      <Edit mutationMode="pessimistic" redirect={false}>
        <RecordTabs tabs={tabs(<SimpleForm>{inputs}</SimpleForm>)} />
      </Edit>
    </EditOrShow>
  );
}

export function EntityCategoryCreate() {
  return (
    <Create redirect="edit">
      <SimpleForm>{inputs}</SimpleForm>
    </Create>
  );
}
