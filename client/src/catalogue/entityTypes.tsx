import { LocalTextField } from '../kit/LocalTextField';
import { FrenchInput } from '../kit/FrenchInput';
import {
  AutocompleteInput,
  Create,
  Edit,
  ImageField,
  List,
  ReferenceInput,
  SearchInput,
  SelectField,
  SelectInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  UrlField,
  required,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { MetaVersions, ParameterAssignments } from './assignments';
import { EditOrShow, ENTITY_TYPE_KIND_CHOICES, ManufacturerField, RecordTabs } from './common';
import { ListActions } from '../kit/ListActions';

const ManufacturerInput = () => (
  <ReferenceInput source="manufacturer_cuid" reference="manufacturer" sort={{ field: 'name', order: 'ASC' }}>
    <AutocompleteInput optionText="name" filterToQuery={(q: string) => ({ q })} />
  </ReferenceInput>
);

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput key="entity_type" source="entity_type" choices={ENTITY_TYPE_KIND_CHOICES} />,
  <ManufacturerInput key="manufacturer_cuid" />,
];

/** Device types and data-processor types (state machines, calculated values, data sources, external interfaces). */
export function EntityTypeList() {
  return (
    <List actions={<ListActions />} filters={filters} sort={{ field: 'model', order: 'ASC' }} data-testid="entity-type-list">
      <DataTable rowClick="show">
        <DataTable.Col source="entitytype_id" />
        <DataTable.Col source="model">
          <LocalTextField source="model" />
        </DataTable.Col>
        <DataTable.Col source="entity_type">
          <SelectField source="entity_type" choices={ENTITY_TYPE_KIND_CHOICES} />
        </DataTable.Col>
        <DataTable.Col source="manufacturer_cuid" disableSort>
          <ManufacturerField />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

const details = (
  <SimpleShowLayout>
    <TextField source="entitytype_id" />
    <LocalTextField source="model" />
    <SelectField source="entity_type" choices={ENTITY_TYPE_KIND_CHOICES} />
    <ManufacturerField source="manufacturer_cuid" />
    <LocalTextField source="description" emptyText="—" />
    <UrlField source="url" emptyText="—" />
    <ImageField source="image" emptyText="—" />
  </SimpleShowLayout>
);

const tabs = (first: React.ReactNode) => [
  { key: 'details', label: 'portal.catalogue.tab_details', content: first },
  {
    key: 'parameters',
    label: 'portal.catalogue.tab_parameters',
    content: <ParameterAssignments resource="entityTypeLogParameterAssignment" target="entitytype_id" />,
  },
  { key: 'meta', label: 'portal.catalogue.tab_meta', content: <MetaVersions /> },
];

export function EntityTypeShow() {
  return (
    <Show>
      <RecordTabs tabs={tabs(details)} />
    </Show>
  );
}

const inputs = (
  <>
    <TextInput source="model" validate={required()} />
    <FrenchInput source="model" />
    <SelectInput source="entity_type" choices={ENTITY_TYPE_KIND_CHOICES} validate={required()} />
    <ManufacturerInput />
    <TextInput source="description" multiline />
    <FrenchInput source="description" multiline />
    <TextInput source="url" type="url" />
    <TextInput source="image" type="url" helperText="portal.catalogue.image_help" />
  </>
);

export function EntityTypeEdit() {
  return (
    <EditOrShow show={EntityTypeShow}>
      <Edit mutationMode="pessimistic" redirect={false}>
        <RecordTabs
          tabs={tabs(
            <SimpleForm>
              <TextInput source="entitytype_id" readOnly />
              {inputs}
            </SimpleForm>,
          )}
        />
      </Edit>
    </EditOrShow>
  );
}

/** A new type; saving opens its page, where the log parameters and meta versions are added. */
export function EntityTypeCreate() {
  return (
    <Create redirect="edit">
      <SimpleForm defaultValues={{ entity_type: 'Device' }}>
        <TextInput source="entitytype_id" validate={required()} helperText="portal.catalogue.slug_help" />
        {inputs}
      </SimpleForm>
    </Create>
  );
}
