import { Create, Edit, List, ReferenceField, required, SearchInput, SimpleForm, TextInput } from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { cleanTemplate, NEW_TEMPLATE_CONFIG, TemplateConfigInputs, TemplateSummaryField } from '../exports/TemplateInputs';
import { ListActions } from '../kit/ListActions';
import { RowButtons } from '../kit/RecordButtons';
import { SystemInput } from '../kit/pickers';
import { AccessEditToolbar } from '../kit/RecordButtons';

const filters = [<SearchInput key="q" source="q" alwaysOn />, <SystemInput key="system_cuid" source="system_cuid" alwaysOn />];

export function ExportTemplateList() {
  return (
    <List actions={<ListActions />} filters={filters} sort={{ field: 'name', order: 'ASC' }} data-testid="export-template-list">
      <DataTable rowClick={false} bulkActionButtons={false}>
        <DataTable.Col source="name" />
        <DataTable.Col source="system_cuid" disableSort>
          <ReferenceField source="system_cuid" reference="system" link={false} />
        </DataTable.Col>
        <DataTable.Col source="config" label="portal.exports.columns" disableSort>
          <TemplateSummaryField />
        </DataTable.Col>
        <DataTable.Col label="" disableSort>
          <RowButtons />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

export function ExportTemplateCreate() {
  return (
    <Create redirect="list" transform={cleanTemplate}>
      <SimpleForm defaultValues={{ config: NEW_TEMPLATE_CONFIG }}>
        <TextInput source="name" validate={required()} />
        <SystemInput source="system_cuid" required />
        <TemplateConfigInputs />
      </SimpleForm>
    </Create>
  );
}

export function ExportTemplateEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list" transform={cleanTemplate}>
      <SimpleForm toolbar={<AccessEditToolbar />}>
        <TextInput source="name" validate={required()} />
        <SystemInput source="system_cuid" disabled />
        <TemplateConfigInputs />
      </SimpleForm>
    </Edit>
  );
}
