import { Typography } from '@mui/material';
import { useLocaleState, useRecordContext } from 'react-admin';
import { localText } from '../i18n/localText';

/**
 * A text of the record in the reader's language (its French from `translations` on French
 * screens, the English column otherwise): `<LocalTextField source="description" />`.
 */
export function LocalTextField({ source, emptyText = '' }: { source: string; label?: string; sortable?: boolean; emptyText?: string }) {
  const record = useRecordContext();
  const [locale] = useLocaleState();
  const text = localText(record, source, locale);
  return (
    <Typography component="span" variant="body2">
      {text ?? emptyText}
    </Typography>
  );
}
