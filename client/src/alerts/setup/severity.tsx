import { Chip } from '@mui/material';
import { SelectInput, type SelectInputProps, useRecordContext } from 'react-admin';
import { NOTIFICATION_SEVERITIES, NOTIFICATION_SEVERITY_COLOURS, type NotificationSeverityValue } from '../../../../shared/common/enums';

/** Spec §9 colours (INFO green, WARNING yellow, ERROR red, CRITICAL black) with readable text. */
const SWATCH: Record<NotificationSeverityValue, { bg: string; fg: string }> = {
  INFO: { bg: '#2e7d32', fg: '#ffffff' },
  WARNING: { bg: '#fbc02d', fg: '#000000' },
  ERROR: { bg: '#c62828', fg: '#ffffff' },
  CRITICAL: { bg: '#000000', fg: '#ffffff' },
};

export function SeverityChip({ severity }: { severity: string }) {
  const swatch = SWATCH[severity as NotificationSeverityValue] ?? { bg: '#757575', fg: '#ffffff' };
  return (
    <Chip
      size="small"
      label={severity}
      data-severity={severity}
      data-colour={NOTIFICATION_SEVERITY_COLOURS[severity as NotificationSeverityValue] ?? 'grey'}
      sx={{ bgcolor: swatch.bg, color: swatch.fg, fontWeight: 600 }}
    />
  );
}

export function SeverityField(_props: { source?: string; label?: string }) {
  const record = useRecordContext();
  return record?.severity_level ? <SeverityChip severity={String(record.severity_level)} /> : null;
}

const SEVERITY_CHOICES = NOTIFICATION_SEVERITIES.map((s) => ({ id: s, name: s }));

export function SeverityInput(props: Omit<SelectInputProps, 'choices'>) {
  return <SelectInput source="severity_level" {...props} choices={SEVERITY_CHOICES} optionText={(c: { id: string }) => <SeverityChip severity={c.id} />} />;
}
