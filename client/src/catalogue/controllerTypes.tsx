import {
  AutocompleteInput,
  Create,
  Edit,
  ImageField,
  List,
  ReferenceInput,
  SearchInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  UrlField,
  Labeled,
  required,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { InterfaceAssignments } from './assignments';
import { cleanCommands, DeclaredCommandsInput } from '../control/DeclaredCommandsInput';
import { EditOrShow, ManufacturerField, RecordTabs } from './common';
import { ListActions } from '../kit/ListActions';

const ManufacturerInput = ({ validate }: { validate?: ReturnType<typeof required> }) => (
  <ReferenceInput source="manufacturer_cuid" reference="manufacturer" sort={{ field: 'name', order: 'ASC' }}>
    <AutocompleteInput optionText="name" filterToQuery={(q: string) => ({ q })} validate={validate} />
  </ReferenceInput>
);

const filters = [<SearchInput key="q" source="q" alwaysOn />, <ManufacturerInput key="manufacturer_cuid" />];

export function ControllerTypeList() {
  return (
    <List actions={<ListActions />} filters={filters} sort={{ field: 'model', order: 'ASC' }}>
      <DataTable rowClick="show">
        <DataTable.Col source="model" />
        <DataTable.Col source="manufacturer_cuid" disableSort>
          <ManufacturerField />
        </DataTable.Col>
        <DataTable.Col source="description" disableSort />
      </DataTable>
    </List>
  );
}

/** The declared commands, read-only: name (label), dangerous, arguments. */
function DeclaredCommandsField() {
  const record = useRecordContext<{ commands?: { name: string; label?: string; dangerous?: boolean; args?: { name: string; type: string }[] }[] }>();
  const translate = useTranslate();
  const list = record?.commands ?? [];
  return (
    <Labeled label="resources.controllerType.fields.commands">
      <span data-testid="declared-commands">
        {list.length === 0
          ? '—'
          : list
              .map(
                (c) =>
                  `${c.label ? `${c.label} (${c.name})` : c.name}${c.dangerous ? ` ⚠ ${translate('portal.control.dangerous')}` : ''}${c.args?.length ? `: ${c.args.map((a) => a.name).join(', ')}` : ''}`,
              )
              .join(' · ')}
      </span>
    </Labeled>
  );
}

const details = (
  <SimpleShowLayout>
    <TextField source="model" />
    <ManufacturerField source="manufacturer_cuid" />
    <TextField source="description" emptyText="—" />
    <UrlField source="url" emptyText="—" />
    <ImageField source="image" emptyText="—" />
    <DeclaredCommandsField />
  </SimpleShowLayout>
);

export function ControllerTypeShow() {
  return (
    <Show>
      <RecordTabs
        tabs={[
          { key: 'details', label: 'portal.catalogue.tab_details', content: details },
          { key: 'interfaces', label: 'portal.catalogue.tab_interfaces', content: <InterfaceAssignments /> },
        ]}
      />
    </Show>
  );
}

const inputs = (
  <>
    <TextInput source="model" validate={required()} />
    <ManufacturerInput validate={required()} />
    <TextInput source="description" multiline />
    <TextInput source="url" type="url" />
    <TextInput source="image" type="url" helperText="portal.catalogue.image_help" />
    <DeclaredCommandsInput />
  </>
);

export function ControllerTypeEdit() {
  return (
    <EditOrShow show={ControllerTypeShow}>
      <Edit mutationMode="pessimistic" redirect={false} transform={cleanCommands}>
        <RecordTabs
          tabs={[
            { key: 'details', label: 'portal.catalogue.tab_details', content: <SimpleForm>{inputs}</SimpleForm> },
            { key: 'interfaces', label: 'portal.catalogue.tab_interfaces', content: <InterfaceAssignments /> },
          ]}
        />
      </Edit>
    </EditOrShow>
  );
}

export function ControllerTypeCreate() {
  return (
    <Create redirect="edit" transform={cleanCommands}>
      <SimpleForm>{inputs}</SimpleForm>
    </Create>
  );
}
