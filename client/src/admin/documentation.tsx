import { DateField } from '../kit/fields';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { Chip } from '@mui/material';
import { useState } from 'react';
import {
  BooleanField,
  Button,
  Create,
  Edit,
  List,
  ReferenceField,
  required,
  SelectInput,
  SimpleForm,
  TextField,
  useCanAccess,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  Labeled,
  BooleanInput,
  type Identifier,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { DOCUMENTATION_TYPES } from '../../../shared/common/enums';
import { ListActions } from '../kit/ListActions';
import { MarkdownInput } from '../kit/MarkdownInput';
import { RowButtons } from '../kit/RecordButtons';
import { AccessEditToolbar } from '../kit/RecordButtons';

const typeChoices = DOCUMENTATION_TYPES.map((t) => ({ id: t, name: `portal.admin.documentation.type.${t}` }));

function TypeField(_props: { source?: string; label?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  return record ? (
    <span>{translate(`portal.admin.documentation.type.${String(record.documentation_type)}`, { _: String(record.documentation_type) })}</span>
  ) : null;
}

/** First line of the Markdown, as plain text (React escapes it). */
function Excerpt(_props: { source?: string; label?: string }) {
  const record = useRecordContext();
  if (!record) return null;
  const first =
    String(record.content ?? '')
      .split('\n')
      .find((l) => l.trim()) ?? '';
  const text = first.replace(/^#+\s*/, '');
  return <span data-testid="documentation-excerpt">{text.length > 80 ? `${text.slice(0, 79)}…` : text}</span>;
}

/**
 * One active version per documentation type: this one becomes active, the type's other active
 * versions inactive (older versions stay, for going back).
 */
function MakeActiveButton() {
  const record = useRecordContext<{ id: Identifier; documentation_type: string; is_active: boolean }>();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ resource: 'documentation', action: 'edit' });
  const [busy, setBusy] = useState(false);
  const translate = useTranslate();
  if (!record) return null;
  if (record.is_active)
    return (
      <Chip size="small" color="success" icon={<CheckCircleIcon />} label={translate('portal.admin.documentation.active')} data-testid="documentation-active" />
    );
  if (!canAccess) return null;
  const run = async () => {
    setBusy(true);
    try {
      const { data: active } = await dataProvider.getList<{ id: Identifier }>('documentation', {
        filter: { documentation_type: record.documentation_type, is_active: true },
        pagination: { page: 1, perPage: 100 },
        sort: { field: 'created_at', order: 'DESC' },
      });
      await dataProvider.update('documentation', { id: record.id, data: { is_active: true }, previousData: record });
      const others = active.filter((d) => String(d.id) !== String(record.id)).map((d) => d.id);
      if (others.length) await dataProvider.updateMany('documentation', { ids: others, data: { is_active: false } });
      notify('portal.admin.documentation.activated', { type: 'success' });
      refresh();
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return <Button label="portal.admin.documentation.make_active" onClick={run} disabled={busy} data-testid="documentation-make-active" />;
}

const filters = [
  <SelectInput key="documentation_type" source="documentation_type" choices={typeChoices} alwaysOn />,
  <BooleanInput key="is_active" source="is_active" />,
];

export function DocumentationList() {
  return (
    <List actions={<ListActions />} filters={filters} sort={{ field: 'created_at', order: 'DESC' }} data-testid="documentation-list">
      <DataTable rowClick={false} bulkActionButtons={false}>
        <DataTable.Col source="documentation_type">
          <TypeField />
        </DataTable.Col>
        <DataTable.Col source="content" disableSort>
          <Excerpt />
        </DataTable.Col>
        <DataTable.Col source="created_at">
          <DateField source="created_at" showTime />
        </DataTable.Col>
        <DataTable.Col source="user_cuid" disableSort>
          <ReferenceField source="user_cuid" reference="user" link={false} emptyText="—">
            <TextField source="name" />
          </ReferenceField>
        </DataTable.Col>
        <DataTable.Col source="is_active">
          <MakeActiveButton />
        </DataTable.Col>
        <DataTable.Col label="" disableSort>
          <RowButtons />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

export function DocumentationCreate() {
  return (
    <Create redirect="list">
      <SimpleForm defaultValues={{ is_active: false, content: '' }}>
        <SelectInput source="documentation_type" choices={typeChoices} validate={required()} />
        <MarkdownInput source="content" validate={required()} />
      </SimpleForm>
    </Create>
  );
}

export function DocumentationEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list">
      <SimpleForm toolbar={<AccessEditToolbar />}>
        <Labeled>
          <TypeField source="documentation_type" />
        </Labeled>
        <Labeled>
          <BooleanField source="is_active" />
        </Labeled>
        <MarkdownInput source="content" validate={required()} />
      </SimpleForm>
    </Edit>
  );
}
