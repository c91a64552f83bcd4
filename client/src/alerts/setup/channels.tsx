import { formatDateTime } from '../../i18n/format';
import { useFormat } from '../../i18n/useFormat';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import SendIcon from '@mui/icons-material/Send';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  IconButton,
  Link,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  Edit,
  email,
  Form,
  List,
  maxLength,
  ReferenceField,
  required,
  SelectInput,
  Show,
  SimpleForm,
  TextInput,
  Title,
  useNotify,
  useRecordContext,
  useRedirect,
  useTranslate,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../../kit/ResponsiveDataTable';
import { NOTIFICATION_CHANNEL_SOURCES, NOTIFICATION_CHANNEL_STATUSES } from '../../../../shared/common/enums';
import { ListActions } from '../../kit/ListActions';
import { messageOf } from '../../trpc';
import { channelDetailsKey, createChannel, resendChannelVerification, sendChannelTest, useChannelAddress, useChannelDetails, useChannelSources } from './api';
import { ChannelTitle } from './channel-label';
import { CompanyInput } from './CompanyInput';
import { RowButtons } from '../../kit/RecordButtons';
import { AccessEditToolbar } from '../../kit/RecordButtons';
import { ownEntry } from '../../../../shared/common/own-entry';
import { ChannelTriggers } from './ChannelTriggers';
import { textOf } from '../../../../shared/common/text';

type Source = (typeof NOTIFICATION_CHANNEL_SOURCES)[number];
const sourceChoices = NOTIFICATION_CHANNEL_SOURCES.map((s) => ({ id: s, name: `portal.channels.sources.${s}` }));
const statusChoices = NOTIFICATION_CHANNEL_STATUSES.map((s) => ({ id: s, name: `portal.channels.statuses.${s}` }));
// A channel becomes ACTIVE once confirmed; the back office only switches it on or off.
const editableStatusChoices = statusChoices.filter((c) => c.id !== 'PENDING');

const STATUS_COLOUR: Record<string, 'success' | 'warning' | 'default'> = { ACTIVE: 'success', PENDING: 'warning', DISABLED: 'default' };
/** While a channel waits for its verification or link, its page asks again this often. */
const PENDING_POLL_MS = 3000;

function StatusChip({ status }: { status: string }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={ownEntry(STATUS_COLOUR, status) ?? 'default'}
      label={translate(`portal.channels.statuses.${status}`, { _: status })}
      data-status={status}
    />
  );
}

function StatusField(_props: { source?: string; label?: string }) {
  const record = useRecordContext();
  return record ? <StatusChip status={String(record.status)} /> : null;
}

function SourceField(_props: { source?: string; label?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  return record ? <span>{translate(`portal.channels.sources.${String(record.source)}`, { _: String(record.source) })}</span> : null;
}

/** The channel's address as the user knows it (e-mail, chat name, Discord name), read from its details. */
function AddressField(_props: { source?: string; label?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const id = record ? String(record.id) : '';
  const details = useChannelAddress(id);
  const d = details.data;
  if (!d) return null;
  const text = d.email?.email ?? d.discord?.name ?? d.telegram?.group_chat_name ?? (d.telegram ? translate('portal.channels.telegram.notLinked') : '');
  return <span>{text}</span>;
}

const filters = [
  <CompanyInput key="company_cuid" source="company_cuid" alwaysOn />,
  <SelectInput key="source" source="source" choices={sourceChoices} />,
  <SelectInput key="status" source="status" choices={statusChoices} />,
];

export function ChannelList() {
  return (
    <List actions={<ListActions />} filters={filters} sort={{ field: 'source', order: 'ASC' }} data-testid="channel-list">
      <DataTable rowClick="show" bulkActionButtons={false}>
        <DataTable.Col source="source">
          <SourceField />
        </DataTable.Col>
        <DataTable.Col label="portal.channels.address" disableSort>
          <AddressField />
        </DataTable.Col>
        <DataTable.Col source="status">
          <StatusField />
        </DataTable.Col>
        <DataTable.Col source="company_cuid" disableSort>
          <ReferenceField source="company_cuid" reference="company" link={false} />
        </DataTable.Col>
        <DataTable.Col label="" disableSort>
          <RowButtons />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

// ---- create: one flow per source ------------------------------------------------------------

function CreateFields({ source }: { source: Source }) {
  const translate = useTranslate();
  if (source === 'EMAIL') {
    return (
      <TextInput
        source="email"
        type="email"
        label="portal.channels.email.address"
        validate={[required(), email()]}
        autoComplete="email"
        inputProps={{ 'data-testid': 'channel-email' }}
      />
    );
  }
  if (source === 'DISCORD') {
    return (
      <>
        <TextInput
          source="name"
          label="portal.channels.discord.name"
          validate={[required(), maxLength(200)]}
          inputProps={{ 'data-testid': 'channel-discord-name' }}
        />
        <TextInput
          source="webhook"
          type="url"
          label="portal.channels.discord.webhook"
          helperText="portal.channels.discord.webhookHelp"
          validate={required()}
          autoComplete="off"
          inputProps={{ 'data-testid': 'channel-discord-webhook' }}
        />
      </>
    );
  }
  return <Typography variant="body2">{translate('portal.channels.telegram.createHelp')}</Typography>;
}

export function ChannelCreate() {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const queryClient = useQueryClient();
  const [source, setSource] = useState<Source>('EMAIL');
  const [busy, setBusy] = useState(false);
  const sources = useChannelSources();
  const telegramOff = sources.data ? !sources.data.telegram.configured : false;

  const submit = async (values: Record<string, unknown>) => {
    const company_cuid = textOf(values.company_cuid ?? '');
    setBusy(true);
    try {
      const answer = await createChannel(source, company_cuid, values);
      if ('message' in answer) notify(answer.message, { type: 'info' });
      await queryClient.invalidateQueries({ queryKey: ['notificationChannel'] });
      redirect('show', 'notificationChannel', answer.channel.channel_cuid);
    } catch (err) {
      notify(messageOf(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate('portal.channels.newChannel')} />
      <CardContent>
        <Form onSubmit={submit}>
          <Stack spacing={2} sx={{ maxWidth: 560 }}>
            <CompanyInput source="company_cuid" required />
            <ToggleButtonGroup
              exclusive
              value={source}
              onChange={(_e, v: Source | null) => v && setSource(v)}
              aria-label={translate('portal.channels.source')}
              color="primary"
            >
              {NOTIFICATION_CHANNEL_SOURCES.map((s) => (
                <ToggleButton key={s} value={s} data-testid={`channel-source-${s}`} disabled={s === 'TELEGRAM' && telegramOff}>
                  {translate(`portal.channels.sources.${s}`)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
            {telegramOff ? (
              <Typography variant="caption" color="text.secondary" data-testid="telegram-not-configured">
                {translate('portal.channels.telegram.notConfigured')}
              </Typography>
            ) : null}
            <CreateFields source={source} />
            <Box>
              <Button
                type="submit"
                variant="contained"
                disabled={busy}
                data-testid="channel-create-submit"
                startIcon={busy ? <CircularProgress size={16} /> : undefined}
              >
                {translate(source === 'DISCORD' ? 'portal.channels.discord.check' : 'portal.channels.create')}
              </Button>
            </Box>
          </Stack>
        </Form>
      </CardContent>
    </Card>
  );
}

// ---- show: details, verification / linking, test, triggers --------------------------------------

function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      notify('portal.channels.copied', { type: 'info' });
    } catch {
      notify('portal.channels.copyFailed', { type: 'warning' });
    }
  };
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <TextField size="small" label={label} value={value} InputProps={{ readOnly: true }} inputProps={{ 'data-testid': testId }} sx={{ minWidth: 360 }} />
      <Tooltip title={translate('portal.channels.copy')}>
        <IconButton onClick={copy} aria-label={`${translate('portal.channels.copy')}: ${label}`}>
          <ContentCopyIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Stack>
  );
}

function ChannelDetailsPanel() {
  const record = useRecordContext();
  const translate = useTranslate();
  const { locale } = useFormat();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const id = record ? String(record.id) : '';
  const details = useChannelDetails(id, PENDING_POLL_MS);
  const sendTest = useMutation({
    mutationFn: () => sendChannelTest(id),
    onSuccess: (r) => notify(r.message, { type: r.ok ? 'success' : 'warning' }),
    onError: (e) => notify(messageOf(e), { type: 'error' }),
  });
  const resend = useMutation({
    mutationFn: () => resendChannelVerification(id),
    onSuccess: (r) => {
      notify(r.message, { type: 'info' });
      void queryClient.invalidateQueries({ queryKey: channelDetailsKey(id) });
    },
    onError: (e) => notify(messageOf(e), { type: 'error' }),
  });
  if (!details.data) return details.isError ? <Alert severity="error">{messageOf(details.error)}</Alert> : <CircularProgress size={24} />;
  const d = details.data;
  const pending = d.channel.status === 'PENDING';
  return (
    <Stack spacing={2} data-testid="channel-details" data-status={d.channel.status}>
      <Stack direction="row" spacing={1} alignItems="center">
        <Typography variant="h6">{translate(`portal.channels.sources.${d.channel.source}`)}</Typography>
        <StatusChip status={d.channel.status} />
        <Typography variant="body2" color="text.secondary">
          {d.channel.company_name}
        </Typography>
      </Stack>

      {d.email ? (
        <Stack spacing={1}>
          <Typography>
            {translate('portal.channels.email.address')}: <b>{d.email.email}</b>
          </Typography>
          {d.email.verified_at ? (
            <Typography variant="body2" color="text.secondary">
              {translate('portal.channels.email.verifiedAt', { date: formatDateTime(d.email.verified_at, locale) })}
            </Typography>
          ) : (
            <Alert
              severity="info"
              data-testid="email-check-inbox"
              action={
                <Button color="inherit" size="small" onClick={() => resend.mutate()} disabled={resend.isPending} data-testid="email-resend">
                  {translate('portal.channels.email.resend')}
                </Button>
              }
            >
              {translate('portal.channels.email.checkInbox', { email: d.email.email })}
            </Alert>
          )}
        </Stack>
      ) : null}

      {d.telegram ? (
        d.telegram.linked_at ? (
          <Alert severity="success" data-testid="telegram-linked">
            {translate('portal.channels.telegram.linkedTo', { group: d.telegram.group_chat_name ?? '' })}
          </Alert>
        ) : (
          <Stack spacing={1.5} data-testid="telegram-pending">
            {!d.telegram.configured ? <Alert severity="warning">{translate('portal.channels.telegram.notConfigured')}</Alert> : null}
            <Typography>{translate('portal.channels.telegram.howTo')}</Typography>
            {d.telegram.deepLink ? (
              <Stack direction="row" spacing={1} alignItems="center">
                <Link href={d.telegram.deepLink} target="_blank" rel="noopener noreferrer" data-testid="telegram-deeplink">
                  {translate('portal.channels.telegram.openTelegram')}
                </Link>
              </Stack>
            ) : null}
            {d.telegram.deepLink ? (
              <CopyField label={translate('portal.channels.telegram.deepLink')} value={d.telegram.deepLink} testId="telegram-deeplink-text" />
            ) : null}
            {d.telegram.command ? (
              <CopyField label={translate('portal.channels.telegram.command')} value={d.telegram.command} testId="telegram-command" />
            ) : null}
            <Stack direction="row" spacing={1} alignItems="center">
              <CircularProgress size={14} />
              <Typography variant="body2" color="text.secondary">
                {translate('portal.channels.telegram.waiting')}
              </Typography>
            </Stack>
          </Stack>
        )
      ) : null}

      {d.discord ? (
        <Typography>
          {translate('portal.channels.discord.name')}: <b>{d.discord.name}</b> · {translate('portal.channels.discord.host')}: {d.discord.host}
        </Typography>
      ) : null}

      <Box>
        <Button
          variant="outlined"
          startIcon={<SendIcon />}
          onClick={() => sendTest.mutate()}
          disabled={sendTest.isPending || pending}
          data-testid="channel-send-test"
        >
          {translate('portal.channels.sendTest')}
        </Button>
      </Box>
      <ChannelTriggers channel_cuid={id} />
    </Stack>
  );
}

export function ChannelShow() {
  return (
    <Show title={<ChannelTitle />}>
      <CardContent>
        <ChannelDetailsPanel />
      </CardContent>
    </Show>
  );
}

export function ChannelEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list" title={<ChannelTitle />}>
      <SimpleForm toolbar={<AccessEditToolbar />}>
        <SelectInput source="source" choices={sourceChoices} disabled />
        <SelectInput source="status" choices={editableStatusChoices} validate={required()} />
      </SimpleForm>
    </Edit>
  );
}
