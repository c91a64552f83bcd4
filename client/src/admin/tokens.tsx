import { DateField } from '../kit/fields';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import KeyOffIcon from '@mui/icons-material/KeyOff';
import { Alert, Box, Button as MuiButton, Card, CardContent, InputAdornment, TextField as MuiTextField, Typography } from '@mui/material';
import { useState } from 'react';
import {
  AutocompleteInput,
  Button,
  Confirm,
  DateTimeInput,
  Form,
  List,
  ReferenceField,
  ReferenceInput,
  required,
  SaveButton,
  TextInput,
  Title,
  useCanAccess,
  useDelete,
  useNotify,
  useRecordContext,
  useRedirect,
  useRefresh,
  useTranslate,
  SelectInput,
  type Identifier,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import type { FieldValues } from 'react-hook-form';
import { toHttpError } from '../dataProvider';
import { ListActions } from '../kit/ListActions';
import { useCreateAuthToken } from './api';
import { textOf } from '../../../shared/common/text';

function TokenStatusField(_props: { label?: string; source?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  if (record.revoked_at)
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('portal.admin.token.revoked')}
      </Typography>
    );
  if (record.expires_at && new Date(record.expires_at as string) < new Date())
    return (
      <Typography variant="body2" color="warning.main">
        {translate('portal.admin.token.expired')}
      </Typography>
    );
  return (
    <Typography variant="body2" color="success.main">
      {translate('portal.admin.token.active')}
    </Typography>
  );
}

/** Revoke (react-admin delete = revoke on the server), with a confirmation. */
function RevokeButton() {
  const record = useRecordContext<{ id: Identifier; description: string; revoked_at?: string | null }>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ resource: 'authToken', action: 'delete' });
  const [open, setOpen] = useState(false);
  const [remove, { isPending }] = useDelete();
  if (!record || record.revoked_at || !canAccess) return null;
  return (
    <>
      <Button label="portal.admin.token.revoke" color="error" onClick={() => setOpen(true)} data-testid="token-revoke">
        <KeyOffIcon />
      </Button>
      <Confirm
        isOpen={open}
        loading={isPending}
        title="portal.admin.token.revoke_title"
        titleTranslateOptions={{ name: record.description }}
        content={translate('portal.admin.token.revoke_content')}
        confirm="portal.admin.token.revoke"
        confirmColor="warning"
        onClose={() => setOpen(false)}
        onConfirm={() =>
          remove(
            'authToken',
            { id: record.id, previousData: record },
            {
              mutationMode: 'pessimistic',
              onSuccess: () => {
                notify('portal.admin.token.revoked_done', { type: 'success' });
                setOpen(false);
                refresh();
              },
              onError: (e) => notify(e instanceof Error ? e.message : String(e), { type: 'error' }),
            },
          )
        }
      />
    </>
  );
}

const filters = [
  <ReferenceInput key="company_cuid" source="company_cuid" reference="company" alwaysOn>
    <AutocompleteInput optionText="name" filterToQuery={(q: string) => ({ q })} sx={{ minWidth: 240 }} />
  </ReferenceInput>,
  <SelectInput
    key="revoked"
    source="revoked"
    alwaysOn
    choices={[
      { id: 'false', name: 'portal.admin.token.active' },
      { id: 'true', name: 'portal.admin.token.revoked' },
    ]}
    parse={(v: string) => (v === '' ? undefined : v === 'true')}
    format={(v: unknown) => (v === undefined || v === null ? '' : textOf(v))}
  />,
];

export function AuthTokenList() {
  return (
    <List actions={<ListActions />} filters={filters} sort={{ field: 'created_at', order: 'DESC' }} data-testid="token-list">
      <DataTable rowClick={false} bulkActionButtons={false}>
        <DataTable.Col source="description" />
        <DataTable.Col source="company_cuid" disableSort>
          <ReferenceField source="company_cuid" reference="company" link={false} />
        </DataTable.Col>
        <DataTable.Col source="created_at">
          <DateField source="created_at" showTime />
        </DataTable.Col>
        <DataTable.Col source="last_used_at">
          <DateField source="last_used_at" showTime emptyText="—" />
        </DataTable.Col>
        <DataTable.Col source="expires_at">
          <DateField source="expires_at" showTime emptyText="—" />
        </DataTable.Col>
        <DataTable.Col source="revoked_at" label="portal.admin.token.status">
          <TokenStatusField />
        </DataTable.Col>
        <DataTable.Col label="" disableSort>
          <RevokeButton />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

/** The new token's secret: shown once, with a copy button and a warning. */
function SecretPanel({ secret, onDone }: { secret: string; onDone: () => void }) {
  const translate = useTranslate();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      // Clipboard refused (no permission, no secure context): the text is selected for Ctrl+C.
      (document.getElementById('token-secret') as HTMLInputElement | null)?.select();
    }
  };
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Alert severity="warning" data-testid="token-secret-warning">
        {translate('portal.admin.token.secret_warning')}
      </Alert>
      <MuiTextField
        id="token-secret"
        label={translate('portal.admin.token.secret')}
        value={secret}
        fullWidth
        slotProps={{
          htmlInput: { readOnly: true, 'data-testid': 'token-secret', style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' } },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <MuiButton onClick={copy} startIcon={<ContentCopyIcon />} data-testid="token-copy">
                  {translate(copied ? 'portal.admin.token.copied' : 'portal.admin.token.copy')}
                </MuiButton>
              </InputAdornment>
            ),
          },
        }}
        onFocus={(e) => e.target.select()}
      />
      <Box>
        <MuiButton variant="contained" onClick={onDone}>
          {translate('portal.admin.token.done')}
        </MuiButton>
      </Box>
    </Box>
  );
}

/** New API token: company, description, optional expiry; the answer carries the secret once. */
export function AuthTokenCreate() {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const [secret, setSecret] = useState<string | null>(null);
  const [serverErrors, setServerErrors] = useState<string | null>(null);
  const createToken = useCreateAuthToken();

  const submit = async (values: FieldValues) => {
    setServerErrors(null);
    try {
      const created = await createToken.mutateAsync({
        company_cuid: String(values.company_cuid),
        description: String(values.description ?? ''),
        expires_at: values.expires_at ? new Date(values.expires_at as string) : null,
      });
      setSecret(created.secret);
      notify('portal.admin.token.created', { type: 'success' });
    } catch (error) {
      const http = toHttpError(error) as { message?: string; body?: { errors?: Record<string, string> } };
      if (http.body?.errors) return http.body.errors;
      setServerErrors(http.message ?? String(error));
    }
    return undefined;
  };

  return (
    <Card sx={{ mt: 2, maxWidth: 720 }}>
      <Title title={translate('portal.admin.token.create_title')} />
      <CardContent>
        {secret ? (
          <SecretPanel secret={secret} onDone={() => redirect('list', 'authToken')} />
        ) : (
          <Form onSubmit={submit}>
            <Box sx={{ display: 'flex', flexDirection: 'column', maxWidth: 480 }}>
              <ReferenceInput source="company_cuid" reference="company">
                <AutocompleteInput
                  optionText="name"
                  filterToQuery={(q: string) => ({ q })}
                  validate={required()}
                  label="resources.authToken.fields.company_cuid"
                />
              </ReferenceInput>
              <TextInput source="description" validate={required()} label="resources.authToken.fields.description" />
              <DateTimeInput source="expires_at" label="resources.authToken.fields.expires_at" />
              {serverErrors ? <Alert severity="error">{serverErrors}</Alert> : null}
              <Box sx={{ mt: 1 }}>
                <SaveButton label="portal.admin.token.create" />
              </Box>
            </Box>
          </Form>
        )}
      </CardContent>
    </Card>
  );
}
