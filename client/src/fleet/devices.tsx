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
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { useWatch } from 'react-hook-form';
import { ENTITY_TYPE_KINDS } from '../../../shared/common/enums';
import { BulkActions } from '../kit/BulkActions';
import { JsonInput } from '../kit/JsonInput';
import { ListActions } from '../kit/ListActions';
import { AccessDeleteButton, AccessEditButton, ReadOnlyGate } from '../kit/RecordButtons';
import { DeviceConfigPanel } from '../control/DeviceConfigPanel';
import { emptyToNull, jsonObjects } from './common';

const JSON_SOURCES = ['config', 'device_info', 'portal_config'];
const toObjects = jsonObjects(...JSON_SOURCES);

/** Devices are entities of kind Device; data processors every other kind (state machines, calculated values …). */
const KINDS = {
  entity: ['Device'],
  dataProcessor: ENTITY_TYPE_KINDS.filter((k) => k !== 'Device'),
} as const;
type Kind = keyof typeof KINDS;

function typeFilter(kind: Kind) {
  return { entity_type: [...KINDS[kind]] };
}

function filtersOf(kind: Kind) {
  return [
    <SearchInput key="q" source="q" alwaysOn />,
    <ReferenceInput key="system" source="system_cuid" reference="system">
      <AutocompleteInput optionText="name" filterToQuery={(q) => ({ q })} />
    </ReferenceInput>,
    <ReferenceInput key="controller" source="controller_id" reference="controller">
      <AutocompleteInput optionText="name" filterToQuery={(q) => ({ q })} />
    </ReferenceInput>,
    <ReferenceInput key="type" source="entitytype_id" reference="entityType" filter={typeFilter(kind)}>
      <AutocompleteInput optionText="model" filterToQuery={(q) => ({ q })} />
    </ReferenceInput>,
  ];
}

function EntityList({ kind }: { kind: Kind }) {
  return (
    <List filters={filtersOf(kind)} sort={{ field: 'name', order: 'ASC' }} actions={<ListActions />} exporter={false}>
      <DataTable
        bulkActionButtons={
          <BulkActions
            edit={[
              {
                source: 'controller_id',
                label: `resources.${kind}.fields.controller_id`,
                reference: { resource: 'controller', optionText: 'name' },
                nullable: true,
              },
            ]}
          />
        }
        rowClick={false}
      >
        <DataTable.Col source="name" />
        <DataTable.Col source="entitytype_id" />
        <DataTable.Col source="system_cuid" disableSort>
          <ReferenceField source="system_cuid" reference="system" link={false} />
        </DataTable.Col>
        <DataTable.Col source="controller_id">
          <ReferenceField source="controller_id" reference="controller" link={false}>
            <TextField source="name" />
          </ReferenceField>
        </DataTable.Col>
        <DataTable.Col label="" disableSort>
          <AccessEditButton />
          <AccessDeleteButton />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

function EntityFields({ kind }: { kind: Kind }) {
  const systemCuid = useWatch({ name: 'system_cuid' }) as string | undefined;
  return (
    <>
      <TextInput source="name" validate={[required(), maxLength(200)]} />
      <ReferenceInput source="system_cuid" reference="system" sort={{ field: 'name', order: 'ASC' }}>
        <AutocompleteInput optionText="name" filterToQuery={(q) => ({ q })} validate={required()} />
      </ReferenceInput>
      <ReferenceInput source="entitytype_id" reference="entityType" filter={typeFilter(kind)} sort={{ field: 'model', order: 'ASC' }}>
        <AutocompleteInput
          optionText={(r: { model?: string; entitytype_id?: string }) => `${r.model ?? ''} (${r.entitytype_id ?? ''})`}
          filterToQuery={(q) => ({ q })}
          validate={required()}
        />
      </ReferenceInput>
      <ReferenceInput
        source="controller_id"
        reference="controller"
        filter={systemCuid ? { system_cuid: systemCuid } : {}}
        sort={{ field: 'name', order: 'ASC' }}
      >
        <AutocompleteInput optionText="name" filterToQuery={(q) => ({ q })} parse={emptyToNull} />
      </ReferenceInput>
      <JsonInput source="config" />
      <JsonInput source="device_info" />
      <JsonInput source="portal_config" />
    </>
  );
}

function EntityCreate({ kind }: { kind: Kind }) {
  return (
    <Create redirect="list" transform={toObjects}>
      <SimpleForm defaultValues={{ config: {}, device_info: {}, portal_config: {} }}>
        <EntityFields kind={kind} />
      </SimpleForm>
    </Create>
  );
}

function EntityEdit({ kind }: { kind: Kind }) {
  return (
    <Edit mutationMode="pessimistic" redirect="list" transform={toObjects}>
      <ReadOnlyGate>
        {(readOnly) => (
          <SimpleForm toolbar={readOnly ? false : undefined}>
            <EntityFields kind={kind} />
          </SimpleForm>
        )}
      </ReadOnlyGate>
      <DeviceConfigPanel />
    </Edit>
  );
}

export const devices = {
  list: () => <EntityList kind="entity" />,
  create: () => <EntityCreate kind="entity" />,
  edit: () => <EntityEdit kind="entity" />,
  recordRepresentation: 'name',
};

export const dataProcessors = {
  list: () => <EntityList kind="dataProcessor" />,
  create: () => <EntityCreate kind="dataProcessor" />,
  edit: () => <EntityEdit kind="dataProcessor" />,
  recordRepresentation: 'name',
};
