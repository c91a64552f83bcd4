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
  SelectField,
  SelectInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  required,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { EditOrShow, LOG_PARAMETER_TYPE_CHOICES, UnitInput } from './common';
import { ListActions } from '../kit/ListActions';

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <ReferenceInput key="unit_cuid" source="unit_cuid" reference="unit" sort={{ field: 'unit', order: 'ASC' }}>
    <AutocompleteInput optionText="unit" filterToQuery={(q: string) => ({ q })} />
  </ReferenceInput>,
  <SelectInput key="type" source="type" choices={LOG_PARAMETER_TYPE_CHOICES} />,
];

const UnitRef = (_props: { label?: string }) => (
  <ReferenceField source="unit_cuid" reference="unit" link="show" emptyText="—">
    <TextField source="unit" />
  </ReferenceField>
);

export function LogParameterList() {
  return (
    <List actions={<ListActions />} filters={filters} sort={{ field: 'parameter_id', order: 'ASC' }}>
      <DataTable rowClick="show">
        <DataTable.Col source="parameter_id" />
        <DataTable.Col source="description" disableSort>
          <LocalTextField source="description" />
        </DataTable.Col>
        <DataTable.Col source="unit_cuid" disableSort>
          <UnitRef />
        </DataTable.Col>
        <DataTable.Col source="type">
          <SelectField source="type" choices={LOG_PARAMETER_TYPE_CHOICES} />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

export function LogParameterShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="parameter_id" />
        <LocalTextField source="description" emptyText="—" />
        <UnitRef label="resources.logParameter.fields.unit_cuid" />
        <SelectField source="type" choices={LOG_PARAMETER_TYPE_CHOICES} />
      </SimpleShowLayout>
    </Show>
  );
}

export function LogParameterEdit() {
  return (
    <EditOrShow show={LogParameterShow}>
      <Edit mutationMode="pessimistic" redirect="show">
        <SimpleForm>
          <TextInput source="parameter_id" readOnly />
          <TextInput source="description" multiline />
          <FrenchInput source="description" multiline />
          <UnitInput />
          <SelectInput source="type" choices={LOG_PARAMETER_TYPE_CHOICES} validate={required()} />
        </SimpleForm>
      </Edit>
    </EditOrShow>
  );
}

export function LogParameterCreate() {
  return (
    <Create redirect="show">
      <SimpleForm defaultValues={{ type: 'FloatLogParameter' }}>
        <TextInput source="parameter_id" validate={required()} helperText="portal.catalogue.slug_help" />
        <TextInput source="description" multiline />
        <FrenchInput source="description" multiline />
        <UnitInput />
        <SelectInput source="type" choices={LOG_PARAMETER_TYPE_CHOICES} validate={required()} />
      </SimpleForm>
    </Create>
  );
}
