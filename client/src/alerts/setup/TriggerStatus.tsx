import { formatDateTime } from '../../i18n/format';
import { Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { type RaRecord, useListContext, useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import { type TriggerStatus as Status, useTriggerStatus, useTriggerStatuses } from './api';

const when = (d: Date | string | null | undefined, locale: string) => (d ? formatDateTime(d, locale, { seconds: true }) : null);

export function TriggerStateChip({ state }: { state: string }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      data-testid="trigger-state"
      data-state={state}
      color={state === 'TRIGGERED' ? 'error' : 'success'}
      variant={state === 'TRIGGERED' ? 'filled' : 'outlined'}
      label={translate(`portal.alarms.state.${state}`)}
    />
  );
}

/** One request for the statuses of every trigger on the list's page (the rows share the query). */
function usePageStatuses(): Map<string, Status> {
  const { data } = useListContext<RaRecord>();
  const ids = (data ?? []).map((r) => String(r.id)).sort();
  const query = useTriggerStatuses(ids);
  return new Map((query.data ?? []).map((s) => [s.trigger_cuid, s]));
}

/** List column: state chip and the last evaluation / next timed check. */
export function TriggerStatusField(_props: { label?: string }) {
  const record = useRecordContext();
  const statuses = usePageStatuses();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const s = record ? statuses.get(String(record.id)) : undefined;
  if (!s) return null;
  return (
    <Stack spacing={0.25} data-testid="trigger-status" data-trigger={s.trigger_cuid}>
      <TriggerStateChip state={s.trigger_state} />
      <Typography variant="caption" color="text.secondary">
        {translate('portal.rules.evaluated_at')}: {when(s.evaluated_at, locale ?? 'en') ?? translate('portal.rules.never')}
      </Typography>
      {s.next_execution && (
        <Typography variant="caption" color="text.secondary">
          {translate('portal.rules.next_execution')}: {when(s.next_execution, locale ?? 'en')}
        </Typography>
      )}
    </Stack>
  );
}

/** Edit page aside: the trigger's evaluation state. */
export function TriggerStatusPanel() {
  const record = useRecordContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const id = record ? String(record.id) : '';
  const query = useTriggerStatus(id);
  const s = query.data;
  if (!s) return null;
  const rows: [string, string | null][] = [
    ['portal.rules.evaluated_at', when(s.evaluated_at, locale ?? 'en') ?? translate('portal.rules.never')],
    ['portal.rules.processing_status', s.processing_status],
    ['portal.rules.next_execution', when(s.next_execution, locale ?? 'en')],
    ['portal.alarms.col.last_value', s.last_value === null || s.last_value === undefined ? null : JSON.stringify(s.last_value)],
  ];
  return (
    <Card sx={{ ml: { md: 2 }, mt: { xs: 2, md: 0 }, minWidth: 240, alignSelf: 'flex-start' }} data-testid="trigger-status-panel">
      <CardContent>
        <Typography variant="subtitle2" component="h2" gutterBottom>
          {translate('portal.rules.status')}
        </Typography>
        <TriggerStateChip state={s.trigger_state} />
        {s.state_since && (
          <Typography variant="body2" sx={{ mt: 1 }}>
            {translate('portal.alarms.col.since')}: {when(s.state_since, locale ?? 'en')}
          </Typography>
        )}
        {rows
          .filter(([, v]) => v)
          .map(([label, v]) => (
            <Typography key={label} variant="body2">
              {translate(label)}: {v}
            </Typography>
          ))}
      </CardContent>
    </Card>
  );
}
