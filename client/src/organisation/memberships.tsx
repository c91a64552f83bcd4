import { Box } from '@mui/material';
import {
  AutocompleteInput,
  BooleanField,
  BooleanInput,
  Create,
  DeleteWithConfirmButton,
  Edit,
  EditButton,
  Labeled,
  List,
  ReferenceInput,
  required,
  SimpleForm,
  TextField,
  useCanAccess,
  useGetIdentity,
  usePermissions,
  useRecordContext,
  type Identifier,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { type Actor, isSuperUser } from '../../../shared/access/policy';
import { ListActions } from '../kit/ListActions';
import { RoleChipField, RoleSelectInput, useRoles } from './roles-ui';

/**
 * Spec §6 membership edit: an admin of the company edits others, not themselves; a superuser
 * edits anyone but not their own role while it is level 0. The server checks the same.
 */
function useMayEditMembership(): boolean {
  const record = useRecordContext<{ id: Identifier; user_cuid: string; company_cuid: string; role_cuid: string; role_level?: number }>();
  const { identity } = useGetIdentity();
  const { permissions } = usePermissions<Actor | null>();
  const { canAccess } = useCanAccess({ resource: 'companyMembership', action: 'edit' });
  const roles = useRoles();
  if (!record || !canAccess || !identity || !permissions) return false;
  const own = String(record.user_cuid) === String(identity.id);
  if (isSuperUser(permissions)) {
    const level = record.role_level ?? roles.find((r) => r.role_cuid === record.role_cuid)?.level;
    return !(own && level === 0);
  }
  if (own) return false;
  return permissions.memberships.some((m) => m.company_cuid === record.company_cuid && m.is_company_admin);
}

export function MembershipEditButton() {
  return useMayEditMembership() ? <EditButton resource="companyMembership" /> : null;
}

function MembershipDeleteButton() {
  const record = useRecordContext();
  return useMayEditMembership() && record ? <DeleteWithConfirmButton resource="companyMembership" mutationMode="pessimistic" /> : null;
}

const filters = [
  <ReferenceInput key="company_cuid" source="company_cuid" reference="company" alwaysOn>
    <AutocompleteInput optionText="name" filterToQuery={(q: string) => ({ q })} sx={{ minWidth: 240 }} />
  </ReferenceInput>,
  <ReferenceInput key="user_cuid" source="user_cuid" reference="user" alwaysOn>
    <AutocompleteInput
      optionText={(u: { name?: string; email?: string }) => (u ? `${u.name ?? ''} <${u.email ?? ''}>` : '')}
      filterToQuery={(q: string) => ({ q })}
      sx={{ minWidth: 240 }}
    />
  </ReferenceInput>,
];

export function MembershipList() {
  return (
    <List actions={<ListActions />} filters={filters} sort={{ field: 'company_name', order: 'ASC' }} data-testid="membership-list">
      <DataTable rowClick={false} bulkActionButtons={false}>
        <DataTable.Col source="company_name" />
        <DataTable.Col source="user_name" />
        <DataTable.Col source="user_email" />
        <DataTable.Col source="role_level" label="resources.companyMembership.fields.role_cuid">
          <RoleChipField />
        </DataTable.Col>
        <DataTable.Col source="is_company_admin" field={BooleanField} />
        <DataTable.Col label="" disableSort>
          <Box sx={{ display: 'flex', gap: 0.5, justifyContent: 'flex-end' }}>
            <MembershipEditButton />
            <MembershipDeleteButton />
          </Box>
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

export function MembershipCreate() {
  return (
    <Create redirect="list">
      <SimpleForm defaultValues={{ is_company_admin: false }}>
        <ReferenceInput source="company_cuid" reference="company">
          <AutocompleteInput optionText="name" filterToQuery={(q: string) => ({ q })} validate={required()} sx={{ minWidth: 280 }} />
        </ReferenceInput>
        <ReferenceInput source="user_cuid" reference="user">
          <AutocompleteInput
            optionText={(u: { name?: string; email?: string }) => (u ? `${u.name ?? ''} <${u.email ?? ''}>` : '')}
            filterToQuery={(q: string) => ({ q })}
            validate={required()}
            sx={{ minWidth: 280 }}
          />
        </ReferenceInput>
        <RoleSelectInput source="role_cuid" validate={required()} />
        <BooleanInput source="is_company_admin" />
      </SimpleForm>
    </Create>
  );
}

export function MembershipEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list">
      <SimpleForm>
        <Labeled>
          <TextField source="company_name" />
        </Labeled>
        <Labeled>
          <TextField source="user_name" />
        </Labeled>
        <Labeled>
          <TextField source="user_email" />
        </Labeled>
        <RoleSelectInput source="role_cuid" validate={required()} />
        <BooleanInput source="is_company_admin" />
      </SimpleForm>
    </Edit>
  );
}
