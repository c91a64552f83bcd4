import {
  BooleanField,
  BooleanInput,
  Create,
  Edit,
  List,
  NullableBooleanInput,
  SearchInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  required,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { EditOrShow } from './common';
import { ListActions } from '../kit/ListActions';

const filters = [<SearchInput key="q" source="q" alwaysOn />, <NullableBooleanInput key="multidevice_support" source="multidevice_support" />];

export function InterfaceTypeList() {
  return (
    <List actions={<ListActions />} filters={filters} sort={{ field: 'interfacetype_id', order: 'ASC' }}>
      <DataTable rowClick="show">
        <DataTable.Col source="interfacetype_id" />
        <DataTable.Col source="multidevice_support">
          <BooleanField source="multidevice_support" />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

export function InterfaceTypeShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="interfacetype_id" />
        <BooleanField source="multidevice_support" />
      </SimpleShowLayout>
    </Show>
  );
}

export function InterfaceTypeEdit() {
  return (
    <EditOrShow show={InterfaceTypeShow}>
      <Edit mutationMode="pessimistic" redirect="show">
        <SimpleForm>
          <TextInput source="interfacetype_id" readOnly />
          <BooleanInput source="multidevice_support" />
        </SimpleForm>
      </Edit>
    </EditOrShow>
  );
}

export function InterfaceTypeCreate() {
  return (
    <Create redirect="show">
      <SimpleForm defaultValues={{ multidevice_support: false }}>
        <TextInput source="interfacetype_id" validate={required()} helperText="portal.catalogue.slug_help" />
        <BooleanInput source="multidevice_support" />
      </SimpleForm>
    </Create>
  );
}
