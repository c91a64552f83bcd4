import { DateField } from '../../kit/fields';
import {
  BooleanField,
  BooleanInput,
  Create,
  Edit,
  List,
  ReferenceField,
  required,
  SearchInput,
  SimpleForm,
  TextInput,
  AutocompleteInput,
  ReferenceInput,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../../kit/ResponsiveDataTable';
import { JsonField } from '../../kit/JsonField';
import { ListActions } from '../../kit/ListActions';
import { RowButtons } from '../../kit/RecordButtons';
import { SystemInput } from '../../kit/pickers';
import { SeverityField, SeverityInput } from './severity';
import { AccessEditToolbar } from '../../kit/RecordButtons';
import { RuleInputs } from './RuleInputs';
import { transformRule, validateRuleForm } from './rule-form';
import { TriggerStatusField, TriggerStatusPanel } from './TriggerStatus';

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SystemInput key="system_cuid" source="system_cuid" alwaysOn />,
  <SeverityInput key="severity_level" source="severity_level" />,
  <BooleanInput key="is_active" source="is_active" />,
];

export function TriggerList() {
  return (
    <List actions={<ListActions />} filters={filters} sort={{ field: 'name', order: 'ASC' }} data-testid="trigger-list">
      <DataTable rowClick={false} bulkActionButtons={false}>
        <DataTable.Col source="name" />
        <DataTable.Col source="system_cuid" disableSort>
          <ReferenceField source="system_cuid" reference="system" link={false} />
        </DataTable.Col>
        <DataTable.Col source="severity_level">
          <SeverityField />
        </DataTable.Col>
        <DataTable.Col source="is_active" field={BooleanField} />
        <DataTable.Col label="portal.rules.status" disableSort>
          <TriggerStatusField />
        </DataTable.Col>
        <DataTable.Col source="args" disableSort>
          <JsonField source="args" compact />
        </DataTable.Col>
        <DataTable.Col source="created_at">
          <DateField source="created_at" showTime />
        </DataTable.Col>
        <DataTable.Col label="" disableSort>
          <RowButtons />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

function TriggerInputs({ creating }: { creating?: boolean }) {
  return (
    <>
      <TextInput source="name" validate={required()} />
      <SystemInput source="system_cuid" required disabled={!creating} />
      {creating ? (
        <ReferenceInput source="assignment_cuid" reference="notificationTemplateAssignment">
          <AutocompleteInput optionText="name" filterToQuery={(q: string) => ({ q })} sx={{ minWidth: 280 }} />
        </ReferenceInput>
      ) : null}
      <BooleanInput source="is_active" />
      <SeverityInput source="severity_level" validate={required()} />
      <TextInput source="message" validate={required()} multiline fullWidth />
      <TextInput source="release_message" multiline fullWidth />
      <RuleInputs />
    </>
  );
}

export function TriggerCreate() {
  return (
    <Create redirect="list" transform={transformRule}>
      <SimpleForm
        defaultValues={{ is_active: true, severity_level: 'INFO', args: { kind: 'threshold', op: 'below', for_seconds: 0, release_for_seconds: 0 } }}
        validate={validateRuleForm()}
      >
        <TriggerInputs creating />
      </SimpleForm>
    </Create>
  );
}

export function TriggerEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list" transform={transformRule} aside={<TriggerStatusPanel />}>
      <SimpleForm toolbar={<AccessEditToolbar />} validate={validateRuleForm()}>
        <TriggerInputs />
      </SimpleForm>
    </Edit>
  );
}
