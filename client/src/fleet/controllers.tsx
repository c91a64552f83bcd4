import {
  AutocompleteInput,
  Create,
  Edit,
  List,
  maxLength,
  ReferenceField,
  ReferenceInput,
  required,
  SearchInput,
  SimpleForm,
  TextField,
  TextInput,
  maxValue,
  minValue,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { useWatch } from 'react-hook-form';
import { BulkActions } from '../kit/BulkActions';
import { LastContactField, StateField } from '../systems/list-state';
import { DecimalInput } from '../kit/DecimalInput';
import { JsonInput } from '../kit/JsonInput';
import { ListActions } from '../kit/ListActions';
import { AccessDeleteButton, AccessEditButton, ReadOnlyGate } from '../kit/RecordButtons';
import { CompanyInput, emptyToNull, jsonObjects, validControllerId } from './common';

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <ReferenceInput key="system" source="system_cuid" reference="system">
    <AutocompleteInput optionText="name" filterToQuery={(q) => ({ q })} />
  </ReferenceInput>,
  <ReferenceInput key="type" source="controllertype_cuid" reference="controllerType">
    <AutocompleteInput optionText="model" filterToQuery={(q) => ({ q })} />
  </ReferenceInput>,
  <ReferenceInput key="company" source="company_cuid" reference="company">
    <AutocompleteInput optionText="name" filterToQuery={(q) => ({ q })} />
  </ReferenceInput>,
];

export function ControllerList() {
  return (
    <List filters={filters} sort={{ field: 'name', order: 'ASC' }} actions={<ListActions />} exporter={false}>
      <DataTable
        bulkActionButtons={
          <BulkActions
            edit={[
              {
                source: 'system_cuid',
                label: 'resources.controller.fields.system_cuid',
                reference: { resource: 'system', optionText: 'name' },
                nullable: true,
              },
            ]}
          />
        }
        rowClick="show"
      >
        <DataTable.Col source="controller_id" />
        <DataTable.Col source="name" />
        <DataTable.Col source="controllertype_cuid" disableSort>
          <ReferenceField source="controllertype_cuid" reference="controllerType" link={false}>
            <TextField source="model" />
          </ReferenceField>
        </DataTable.Col>
        <DataTable.Col source="system_cuid" disableSort>
          <ReferenceField source="system_cuid" reference="system" link={false} />
        </DataTable.Col>
        {/* State and last contact (issue 13): controller.getList's online_state and last_contact. */}
        <DataTable.Col source="online_state" label="portal.lists.state">
          <StateField />
        </DataTable.Col>
        <DataTable.Col source="last_contact" label="portal.lists.last_contact">
          <LastContactField />
        </DataTable.Col>
        <DataTable.Col source="serial_number" />
        <DataTable.Col source="sw_version" />
        <DataTable.Col label="" disableSort>
          <AccessEditButton />
          <AccessDeleteButton />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

function ControllerFields({ companyCuid }: { companyCuid?: string }) {
  return (
    <>
      <TextInput source="name" validate={[required(), maxLength(200)]} />
      <ReferenceInput source="controllertype_cuid" reference="controllerType" sort={{ field: 'model', order: 'ASC' }}>
        <AutocompleteInput optionText="model" filterToQuery={(q) => ({ q })} validate={required()} />
      </ReferenceInput>
      <ReferenceInput source="system_cuid" reference="system" filter={companyCuid ? { company_cuid: companyCuid } : {}} sort={{ field: 'name', order: 'ASC' }}>
        <AutocompleteInput optionText="name" filterToQuery={(q) => ({ q })} parse={emptyToNull} />
      </ReferenceInput>
      <TextInput source="serial_number" validate={maxLength(100)} parse={emptyToNull} />
      <DecimalInput source="ssh_port" integer validate={[minValue(1), maxValue(65535)]} />
      <TextInput source="sw_version" validate={maxLength(64)} parse={emptyToNull} />
      <JsonInput source="controller_info" />
      <JsonInput source="config" />
    </>
  );
}

function CreateFields() {
  const companyCuid = useWatch({ name: 'company_cuid' }) as string | undefined;
  return <ControllerFields companyCuid={companyCuid} />;
}

export function ControllerCreate() {
  return (
    <Create redirect="list" transform={jsonObjects('controller_info', 'config')}>
      <SimpleForm defaultValues={{ controller_info: {}, config: {} }}>
        <TextInput source="controller_id" validate={[required(), validControllerId]} helperText="portal.fleet.controller_id_help" />
        <CompanyInput />
        <CreateFields />
      </SimpleForm>
    </Create>
  );
}

export function ControllerEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list" transform={jsonObjects('controller_info', 'config')}>
      <ReadOnlyGate>
        {(readOnly) => (
          <SimpleForm toolbar={readOnly ? false : undefined}>
            <TextInput source="controller_id" readOnly />
            <EditFields />
          </SimpleForm>
        )}
      </ReadOnlyGate>
    </Edit>
  );
}

function EditFields() {
  const companyCuid = useWatch({ name: 'company_cuid' }) as string | undefined;
  return <ControllerFields companyCuid={companyCuid} />;
}

export const controllers = { list: ControllerList, create: ControllerCreate, edit: ControllerEdit, recordRepresentation: 'name' };
