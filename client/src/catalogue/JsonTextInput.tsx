import { TextField } from '@mui/material';
import { useState } from 'react';
import { useInput, useTranslate } from 'react-admin';

/** Marker of text that is not a JSON object: kept as the value so validation blocks saving. */
class NotJsonObject {
  constructor(readonly message: string) {}
}

function parse(text: string): Record<string, unknown> | NotJsonObject {
  if (text.trim() === '') return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (!value || typeof value !== 'object' || Array.isArray(value)) return new NotJsonObject('portal.catalogue.json_not_object');
    return value as Record<string, unknown>;
  } catch (error) {
    return new NotJsonObject(error instanceof Error ? error.message : String(error));
  }
}

const validJson = (value: unknown) => (value instanceof NotJsonObject ? value.message : undefined);

/**
 * A JSON object field as multiline text (value = the parsed object). The text is kept as typed;
 * while it does not parse the form shows why and will not save.
 */
export function JsonTextInput({ source, label, helperText }: { source: string; label?: string; helperText?: string }) {
  const translate = useTranslate();
  const { field, fieldState, id, isRequired } = useInput({ source, validate: validJson, defaultValue: {} });
  const [text, setText] = useState(() => (field.value && !(field.value instanceof NotJsonObject) ? JSON.stringify(field.value, null, 2) : ''));
  const error = fieldState.error?.message;
  return (
    <TextField
      id={id}
      label={label ? translate(label, { _: label }) : undefined}
      required={isRequired}
      multiline
      minRows={4}
      fullWidth
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        field.onChange(parse(event.target.value));
      }}
      onBlur={field.onBlur}
      error={!!error}
      helperText={error ? translate(error, { _: error }) : helperText ? translate(helperText, { _: helperText }) : undefined}
      slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' }, 'data-testid': `json-${source}` } }}
    />
  );
}
