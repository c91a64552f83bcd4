import { Box } from '@mui/material';
import { type FieldProps, useFieldValue, useTranslate } from 'react-admin';
import { formatJsonValue } from './JsonInput.parse';

export interface JsonFieldProps extends FieldProps {
  /** One line, cut at `maxLength` characters (for lists); default: pretty-printed block. */
  compact?: boolean;
  maxLength?: number;
}

/**
 * A JSON value shown read-only as text: `<JsonField source="config" />`. React renders it as a
 * text node, so markup inside the data stays inert.
 */
export function JsonField(props: JsonFieldProps) {
  const { compact = false, maxLength = 80 } = props;
  const value: unknown = useFieldValue(props);
  const translate = useTranslate();
  if (value === null || value === undefined) {
    return (
      <Box component="span" sx={{ color: 'text.disabled' }}>
        {props.emptyText ? translate(props.emptyText, { _: props.emptyText }) : '—'}
      </Box>
    );
  }
  if (compact) {
    const line = JSON.stringify(value);
    const cut = line.length > maxLength ? `${line.slice(0, maxLength - 1)}…` : line;
    return (
      <Box
        component="code"
        title={line.length > maxLength ? line : undefined}
        sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 12 }}
      >
        {cut}
      </Box>
    );
  }
  return (
    <Box
      component="pre"
      sx={{
        m: 0,
        p: 1,
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
        fontSize: 13,
        bgcolor: 'action.hover',
        borderRadius: 1,
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-word',
        maxHeight: 400,
        overflow: 'auto',
      }}
    >
      {formatJsonValue(value)}
    </Box>
  );
}
