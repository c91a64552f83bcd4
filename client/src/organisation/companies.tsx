import { DateField } from '../kit/fields';
import { Avatar, Box, Typography } from '@mui/material';
import {
  Create,
  DeleteWithConfirmButton,
  Edit,
  EditButton,
  List,
  ReferenceManyField,
  required,
  SaveButton,
  SearchInput,
  SimpleForm,
  TextInput,
  Toolbar,
  UrlField,
  useCanAccess,
  useRecordContext,
  useTranslate,
  BooleanField,
  CreateButton,
  type Identifier,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { JsonInput, jsonObject } from '../kit/JsonInput';
import { ListActions } from '../kit/ListActions';
import { matches } from '../kit/validators';
import { useCurrentRecordAccess } from '../kit/useRecordAccess';
import { MembershipEditButton } from './memberships';
import { RoleChipField } from './roles-ui';

const url = matches(/^https?:\/\/\S+$/i, 'portal.organisation.company.url_hint');

/** The company's logo (a URL the company gives); only http(s) addresses are shown. */
export function LogoField(_props: { label?: string; source?: string }) {
  const record = useRecordContext();
  const src = typeof record?.logo === 'string' && /^https?:\/\//i.test(record.logo) ? record.logo : undefined;
  return (
    <Avatar src={src} alt="" variant="rounded" sx={{ width: 32, height: 32, fontSize: 14 }}>
      {String(record?.name ?? '?')
        .slice(0, 1)
        .toUpperCase()}
    </Avatar>
  );
}

function CompanyRowButtons() {
  const access = useCurrentRecordAccess();
  const { canAccess: canDelete } = useCanAccess({ resource: 'company', action: 'delete' });
  return (
    <Box sx={{ display: 'flex', gap: 0.5, justifyContent: 'flex-end' }}>
      {access.edit ? <EditButton /> : null}
      {access.delete && canDelete ? <DeleteWithConfirmButton mutationMode="pessimistic" /> : null}
    </Box>
  );
}

export function CompanyList() {
  return (
    <List actions={<ListActions />} filters={[<SearchInput key="q" source="q" alwaysOn />]} sort={{ field: 'name', order: 'ASC' }} data-testid="company-list">
      <DataTable rowClick={false} bulkActionButtons={false}>
        <DataTable.Col source="logo" disableSort>
          <LogoField />
        </DataTable.Col>
        <DataTable.Col source="name" />
        <DataTable.Col source="url" disableSort>
          <UrlField source="url" emptyText="—" target="_blank" rel="noopener noreferrer" />
        </DataTable.Col>
        <DataTable.Col source="created_at">
          <DateField source="created_at" />
        </DataTable.Col>
        <DataTable.Col label="" disableSort>
          <CompanyRowButtons />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

function CompanyInputs() {
  return (
    <>
      <TextInput source="name" validate={required()} />
      <TextInput source="url" validate={url} helperText="portal.organisation.company.url_hint" />
      <TextInput source="logo" validate={url} helperText="portal.organisation.company.logo_hint" />
      <JsonInput source="meta" validate={jsonObject} />
    </>
  );
}

export function CompanyCreate() {
  return (
    <Create redirect="list">
      <SimpleForm defaultValues={{ meta: {} }}>
        <CompanyInputs />
      </SimpleForm>
    </Create>
  );
}

function CompanyEditToolbar() {
  const access = useCurrentRecordAccess();
  const { canAccess: canDelete } = useCanAccess({ resource: 'company', action: 'delete' });
  return (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
      <SaveButton disabled={!access.edit} />
      {access.delete && canDelete ? <DeleteWithConfirmButton mutationMode="pessimistic" /> : null}
    </Toolbar>
  );
}

function CompanyMembers() {
  const translate = useTranslate();
  const { canAccess: canList } = useCanAccess({ resource: 'companyMembership', action: 'list' });
  const { canAccess: canCreate } = useCanAccess({ resource: 'companyMembership', action: 'create' });
  const record = useRecordContext<{ id: Identifier; company_cuid: string }>();
  if (!canList || !record) return null;
  return (
    <Box sx={{ width: '100%', mt: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h6">{translate('resources.companyMembership.name', { smart_count: 2 })}</Typography>
        {canCreate ? (
          <CreateButton resource="companyMembership" state={{ record: { company_cuid: record.company_cuid } }} label="portal.organisation.company.add_member" />
        ) : null}
      </Box>
      <ReferenceManyField reference="companyMembership" target="company_cuid" source="company_cuid" sort={{ field: 'user_name', order: 'ASC' }}>
        <DataTable bulkActionButtons={false} rowClick={false}>
          <DataTable.Col source="user_name" />
          <DataTable.Col source="user_email" />
          <DataTable.Col source="role_level" label="resources.companyMembership.fields.role_cuid">
            <RoleChipField />
          </DataTable.Col>
          <DataTable.Col source="is_company_admin" field={BooleanField} />
          <DataTable.Col label="" disableSort>
            <MembershipEditButton />
          </DataTable.Col>
        </DataTable>
      </ReferenceManyField>
    </Box>
  );
}

export function CompanyEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list">
      <SimpleForm toolbar={<CompanyEditToolbar />}>
        <CompanyInputs />
        <CompanyMembers />
      </SimpleForm>
    </Edit>
  );
}
