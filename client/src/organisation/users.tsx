import { DateField } from '../kit/fields';
import BlockIcon from '@mui/icons-material/Block';
import RestoreIcon from '@mui/icons-material/Restore';
import { Box, Chip, Typography } from '@mui/material';
import { useState } from 'react';
import {
  AutocompleteInput,
  BooleanField,
  BooleanInput,
  Button,
  Confirm,
  Create,
  DeleteWithConfirmButton,
  Edit,
  email,
  List,
  minLength,
  PasswordInput,
  ReferenceField,
  ReferenceInput,
  ReferenceManyField,
  required,
  SaveButton,
  SearchInput,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  Toolbar,
  useCanAccess,
  useGetIdentity,
  useNotify,
  useRecordContext,
  useRedirect,
  useRefresh,
  useTranslate,
  EditButton,
  type Identifier,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { ListActions } from '../kit/ListActions';
import { toHttpError } from '../dataProvider';
import { useCreateUser, useResendInvitation, useSetUserActive } from './api';
import { RoleChipField, RoleSelectInput } from './roles-ui';
import { MembershipEditButton } from './memberships';
import { textOf } from '../../../shared/common/text';

const MIN_PASSWORD = 8;

function useUserFilters() {
  const { canAccess: canListCompanies } = useCanAccess({ resource: 'company', action: 'list' });
  return [
    <SearchInput key="q" source="q" alwaysOn />,
    ...(canListCompanies
      ? [
          <ReferenceInput key="company_cuid" source="company_cuid" reference="company" alwaysOn>
            <AutocompleteInput optionText="name" filterToQuery={(q: string) => ({ q })} sx={{ minWidth: 240 }} />
          </ReferenceInput>,
        ]
      : []),
    <SelectInput
      key="inactive"
      source="inactive"
      choices={[
        { id: 'false', name: 'portal.organisation.user.active' },
        { id: 'true', name: 'portal.organisation.user.inactive' },
      ]}
      parse={(v: string) => (v === '' ? undefined : v === 'true')}
      format={(v: unknown) => (v === undefined || v === null ? '' : textOf(v))}
    />,
  ];
}

/** Active / Inactive, with when and by whom when inactive. */
export function UserStatusField(_props: { label?: string; source?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return record.inactive ? (
    <Chip
      size="small"
      color="default"
      variant="outlined"
      icon={<BlockIcon />}
      label={translate('portal.organisation.user.inactive')}
      data-testid="user-inactive"
    />
  ) : (
    <Chip size="small" color="success" variant="outlined" label={translate('portal.organisation.user.active')} data-testid="user-active" />
  );
}

/** Deactivate (with confirmation) or Reactivate (showing when and by whom it was deactivated). */
export function UserStatusButton() {
  const record = useRecordContext<{
    id: Identifier;
    user_cuid: string;
    name: string;
    email: string;
    inactive: boolean;
    inactivated_at?: string | null;
    inactivated_by_user_cuid?: string | null;
  }>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { identity } = useGetIdentity();
  const { canAccess } = useCanAccess({ resource: 'user', action: 'deactivate' });
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const setActive = useSetUserActive();
  // Deactivating oneself would sign one out at once: not offered here.
  if (!record || !canAccess || (identity && String(identity.id) === String(record.user_cuid))) return null;
  const deactivating = !record.inactive;
  const run = async () => {
    setBusy(true);
    try {
      await setActive.mutateAsync({ user_cuid: String(record.user_cuid), active: !deactivating });
      notify(deactivating ? 'portal.organisation.user.deactivated' : 'portal.organisation.user.reactivated', {
        type: 'success',
        messageArgs: { name: record.name },
      });
      refresh();
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };
  return (
    <>
      <Button
        label={deactivating ? 'portal.organisation.user.deactivate' : 'portal.organisation.user.reactivate'}
        onClick={(e) => {
          e.stopPropagation();
          setOpen(true);
        }}
        color={deactivating ? 'warning' : 'primary'}
        data-testid={deactivating ? 'user-deactivate' : 'user-reactivate'}
      >
        {deactivating ? <BlockIcon /> : <RestoreIcon />}
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title={deactivating ? 'portal.organisation.user.deactivate_title' : 'portal.organisation.user.reactivate_title'}
        titleTranslateOptions={{ name: record.name }}
        content={
          deactivating ? (
            translate('portal.organisation.user.deactivate_content', { name: record.name, email: record.email })
          ) : (
            <Box onClick={(e) => e.stopPropagation()}>
              <Typography component="p" sx={{ mb: 1 }}>
                {translate('portal.organisation.user.reactivate_content', { name: record.name })}
              </Typography>
              <Typography component="p" variant="body2" data-testid="user-inactivated-info">
                {translate('portal.organisation.user.inactivated_at')}: <DateField record={record} source="inactivated_at" showTime emptyText="—" />
                {' · '}
                {translate('portal.organisation.user.inactivated_by')}:{' '}
                {record.inactivated_by_user_cuid ? (
                  <ReferenceField record={record} source="inactivated_by_user_cuid" reference="user" link={false} emptyText="—">
                    <TextField source="name" />
                  </ReferenceField>
                ) : (
                  '—'
                )}
              </Typography>
            </Box>
          )
        }
        confirm={deactivating ? 'portal.organisation.user.deactivate' : 'portal.organisation.user.reactivate'}
        confirmColor={deactivating ? 'warning' : 'primary'}
        onConfirm={run}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/** Delete (spec §6): a superuser only, never oneself. */
export function UserDeleteButton() {
  const record = useRecordContext<{ id: Identifier; user_cuid: string; name: string }>();
  const { identity } = useGetIdentity();
  const { canAccess } = useCanAccess({ resource: 'user', action: 'delete' });
  if (!record || !canAccess || !identity || String(identity.id) === String(record.user_cuid)) return null;
  return <DeleteWithConfirmButton mutationMode="pessimistic" translateOptions={{ name: record.name }} />;
}

function UserEditLink() {
  const { canAccess } = useCanAccess({ resource: 'user', action: 'edit' });
  return canAccess ? <EditButton /> : null;
}

export function UserList() {
  const filters = useUserFilters();
  return (
    <List actions={<ListActions />} filters={filters} sort={{ field: 'name', order: 'ASC' }} data-testid="user-list">
      <DataTable rowClick={false} bulkActionButtons={false}>
        <DataTable.Col source="name" />
        <DataTable.Col source="email" />
        <DataTable.Col source="phone" disableSort />
        <DataTable.Col source="inactive" label="portal.organisation.user.status">
          <UserStatusField />
        </DataTable.Col>
        <DataTable.Col label="" disableSort>
          <Box sx={{ display: 'flex', gap: 0.5, justifyContent: 'flex-end' }}>
            <UserEditLink />
            <UserStatusButton />
            <UserDeleteButton />
          </Box>
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

const passwordRules = [minLength(MIN_PASSWORD)];

/**
 * A new user with a password, or (password left empty) invited: the server mails them a link to
 * choose their own, in the language picked here (else the admin's), and says whether the mail
 * went out; the answer is shown as the notification.
 */
export function UserCreate() {
  const notify = useNotify();
  const redirect = useRedirect();
  const translate = useTranslate();
  const createUser = useCreateUser();
  const save = async (values: Record<string, unknown>) => {
    try {
      const answer = await createUser.mutateAsync(values);
      if (answer.invitation)
        notify(answer.invitation.message, { type: answer.invitation.sent ? 'success' : 'warning', autoHideDuration: answer.invitation.sent ? 5000 : null });
      else notify('ra.notification.created', { type: 'info', messageArgs: { smart_count: 1 } });
      redirect('list', 'user');
      return undefined;
    } catch (error) {
      const failure = toHttpError(error) as { body?: { errors?: Record<string, string> }; message?: string };
      if (failure.body?.errors) return failure.body.errors;
      notify(failure.message ?? String(error), { type: 'error' });
      return undefined;
    }
  };
  return (
    <Create redirect="list">
      <SimpleForm defaultValues={{ is_company_admin: false }} onSubmit={save}>
        <TextInput source="email" type="email" validate={[required(), email()]} autoComplete="off" />
        <TextInput source="name" validate={required()} autoComplete="off" />
        <TextInput source="phone" autoComplete="off" />
        <PasswordInput source="password" validate={passwordRules} autoComplete="new-password" helperText="portal.account.invitation.hint" />
        <SelectInput
          source="language"
          label="portal.account.invitation.language"
          choices={[
            { id: 'en', name: translate('portal.language.en') },
            { id: 'fr', name: translate('portal.language.fr') },
          ]}
          emptyText="—"
        />
        <ReferenceInput source="company_cuid" reference="company">
          <AutocompleteInput optionText="name" filterToQuery={(q: string) => ({ q })} validate={required()} sx={{ minWidth: 280 }} />
        </ReferenceInput>
        <RoleSelectInput source="role_cuid" validate={required()} />
        <BooleanInput source="is_company_admin" />
      </SimpleForm>
    </Create>
  );
}

/** On an invited user who has not chosen a password yet (inactive, nobody deactivated them): send the invitation again. */
function ResendInvitationButton() {
  const record = useRecordContext();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const resendInvitation = useResendInvitation();
  if (!record || !record.inactive || record.inactivated_by_user_cuid) return null;
  const resend = async () => {
    setBusy(true);
    try {
      const answer = await resendInvitation.mutateAsync(String(record.user_cuid));
      notify(answer.message, { type: answer.sent ? 'success' : 'warning' });
    } catch (error) {
      notify((toHttpError(error) as Error).message ?? String(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return <Button label="portal.account.invitation.resend" onClick={() => void resend()} disabled={busy} data-testid="user-resend-invitation" />;
}

function UserEditToolbar() {
  return (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
      <SaveButton />
      <Box sx={{ display: 'flex', gap: 1 }}>
        <ResendInvitationButton />
        <UserStatusButton />
        <UserDeleteButton />
      </Box>
    </Toolbar>
  );
}

function UserInactiveNotice() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record?.inactive) return null;
  return (
    <Typography variant="body2" color="warning.main" sx={{ mb: 1 }} data-testid="user-inactive-notice">
      {translate('portal.organisation.user.inactive')} — {translate('portal.organisation.user.inactivated_at')}:{' '}
      <DateField source="inactivated_at" showTime emptyText="—" />
      {' · '}
      {translate('portal.organisation.user.inactivated_by')}:{' '}
      <ReferenceField source="inactivated_by_user_cuid" reference="user" link={false} emptyText="—">
        <TextField source="name" />
      </ReferenceField>
    </Typography>
  );
}

/** On one's own record: the current password, which the server asks for a new password or email. */
function OwnCurrentPassword() {
  const record = useRecordContext();
  const { identity } = useGetIdentity();
  if (!record || !identity || String(identity.id) !== String(record.id)) return null;
  return <PasswordInput source="current_password" autoComplete="current-password" helperText="portal.organisation.user.current_password_hint" />;
}

export function UserEdit() {
  const translate = useTranslate();
  return (
    <Edit mutationMode="pessimistic" redirect="list">
      <SimpleForm toolbar={<UserEditToolbar />}>
        <UserInactiveNotice />
        <TextInput source="email" type="email" validate={[required(), email()]} autoComplete="off" />
        <TextInput source="name" validate={required()} autoComplete="off" />
        <TextInput source="phone" autoComplete="off" />
        <PasswordInput
          source="password"
          validate={(v: string | null | undefined) =>
            v && v.length < MIN_PASSWORD ? { message: 'ra.validation.minLength', args: { min: MIN_PASSWORD } } : undefined
          }
          autoComplete="new-password"
          helperText="portal.organisation.user.password_keep"
        />
        <OwnCurrentPassword />
        <Typography variant="h6" sx={{ mt: 2 }}>
          {translate('resources.companyMembership.name', { smart_count: 2 })}
        </Typography>
        <ReferenceManyField reference="companyMembership" target="user_cuid" source="user_cuid" sort={{ field: 'company_name', order: 'ASC' }}>
          <DataTable bulkActionButtons={false} rowClick={false}>
            <DataTable.Col source="company_name" />
            <DataTable.Col source="role_level" label="resources.companyMembership.fields.role_cuid">
              <RoleChipField />
            </DataTable.Col>
            <DataTable.Col source="is_company_admin" field={BooleanField} />
            <DataTable.Col label="" disableSort>
              <MembershipEditButton />
            </DataTable.Col>
          </DataTable>
        </ReferenceManyField>
      </SimpleForm>
    </Edit>
  );
}
