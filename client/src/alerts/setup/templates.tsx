import {
  AutocompleteInput,
  BooleanField,
  BooleanInput,
  Create,
  Edit,
  List,
  ReferenceField,
  ReferenceInput,
  required,
  SearchInput,
  SimpleForm,
  TextInput,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../../kit/ResponsiveDataTable';
import { JsonField } from '../../kit/JsonField';
import { RuleInputs } from './RuleInputs';
import { transformRule, validateRuleForm } from './rule-form';
import { ListActions } from '../../kit/ListActions';
import { AccessEditToolbar, RowButtons } from '../../kit/RecordButtons';
import { SeverityField, SeverityInput } from './severity';

const EntityTypeInput = (props: { disabled?: boolean }) => (
  <ReferenceInput source="entitytype_id" reference="entityType">
    <AutocompleteInput
      optionText={(t: { entitytype_id?: string; model?: string }) => (t ? `${t.model ?? ''} (${t.entitytype_id ?? ''})` : '')}
      filterToQuery={(q: string) => ({ q })}
      validate={required()}
      disabled={props.disabled}
      sx={{ minWidth: 280 }}
    />
  </ReferenceInput>
);

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SeverityInput key="severity_level" source="severity_level" />,
  <ReferenceInput key="entitytype_id" source="entitytype_id" reference="entityType">
    <AutocompleteInput optionText="model" filterToQuery={(q: string) => ({ q })} />
  </ReferenceInput>,
];

export function TemplateList() {
  return (
    <List actions={<ListActions />} filters={filters} sort={{ field: 'name', order: 'ASC' }} data-testid="template-list">
      <DataTable rowClick={false} bulkActionButtons={false}>
        <DataTable.Col source="name" />
        <DataTable.Col source="severity_level">
          <SeverityField />
        </DataTable.Col>
        <DataTable.Col source="entitytype_id">
          <ReferenceField source="entitytype_id" reference="entityType" link={false} />
        </DataTable.Col>
        <DataTable.Col source="message" disableSort />
        <DataTable.Col source="args" disableSort>
          <JsonField source="args" compact />
        </DataTable.Col>
        <DataTable.Col source="autocreate_triggers" field={BooleanField} disableSort />
        <DataTable.Col label="" disableSort>
          <RowButtons />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

function TemplateInputs({ creating }: { creating?: boolean }) {
  return (
    <>
      <TextInput source="name" validate={required()} />
      <SeverityInput source="severity_level" validate={required()} />
      {creating ? <EntityTypeInput /> : <EntityTypeInput disabled />}
      <TextInput source="message" validate={required()} multiline fullWidth />
      <TextInput source="release_message" multiline fullWidth />
      <TextInput source="description" multiline fullWidth />
      <RuleInputs template />
      <BooleanInput source="autocreate_triggers" />
    </>
  );
}

export function TemplateCreate() {
  return (
    <Create redirect="list" transform={transformRule}>
      <SimpleForm
        defaultValues={{ severity_level: 'INFO', args: { kind: 'threshold', op: 'below', for_seconds: 0, release_for_seconds: 0 }, autocreate_triggers: false }}
        validate={validateRuleForm(true)}
      >
        <TemplateInputs creating />
      </SimpleForm>
    </Create>
  );
}

export function TemplateEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list" transform={transformRule}>
      <SimpleForm toolbar={<AccessEditToolbar />} validate={validateRuleForm(true)}>
        <TemplateInputs />
      </SimpleForm>
    </Edit>
  );
}
