import { Box, Button, type SxProps, type Theme, FormHelperText, InputLabel, Stack, TextField } from '@mui/material';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { FieldTitle, type InputProps, useInput, useTranslate, type Validator } from 'react-admin';
import { formatJsonValue, InvalidJson, parseJsonText, sameJson } from './JsonInput.parse';
import { sxItems } from './sx';

/** What the editor hands the form (a box, so a value with a `target` key is not taken for an event). */
class Edited {
  constructor(readonly value: unknown) {}
}
const unbox = (v: unknown) => (v instanceof Edited ? v.value : v);
const keep = (v: unknown) => v;

/** Blocks saving while the text does not parse (react-admin validation). */
export const validJson: Validator = (value) =>
  value instanceof InvalidJson
    ? {
        message: 'portal.kit.json.invalid_at',
        args: {
          line: value.line,
          column: value.column,
          message: value.message,
          _: `Invalid JSON (line ${value.line}, column ${value.column}): ${value.message}`,
        },
      }
    : undefined;

/** The value must be a JSON object (not an array, not empty): for `meta`, `args`, `config` … */
export const jsonObject: Validator = (value) =>
  value instanceof InvalidJson || (value !== null && typeof value === 'object' && !Array.isArray(value))
    ? undefined
    : { message: 'portal.kit.json.not_object', args: { _: 'Must be a JSON object ({ … })' } };

export interface JsonInputProps extends Omit<InputProps, 'format' | 'parse'> {
  helperText?: React.ReactNode;
  /** Visible text rows (default 6, grows to 24). */
  minRows?: number;
  fullWidth?: boolean;
  className?: string;
  sx?: SxProps<Theme>;
}

/**
 * A JSON value edited as text: `<JsonInput source="config" />`. The form value is the parsed
 * object/array (null when the text is empty); while the text does not parse the value is an
 * InvalidJson, shown inline with its line and column, and the form refuses to save. "Format"
 * (or Ctrl+Shift+F in the text) pretty-prints it. Plain MUI parts: Tab moves on, no trap.
 */
export function JsonInput(props: JsonInputProps) {
  const { label, helperText, minRows = 6, fullWidth = true, validate, source, resource, disabled, readOnly, className, sx } = props;
  const translate = useTranslate();
  const validators = [validJson, ...(Array.isArray(validate) ? validate : validate ? [validate] : [])];
  const {
    id,
    field,
    fieldState: { error, invalid, isTouched },
    formState: { isSubmitted },
    isRequired,
  } = useInput({ ...props, validate: validators, parse: unbox, format: keep });

  const [text, setText] = useState(() => formatJsonValue(field.value));
  // The last value this editor produced: a different one came from outside (record load, reset).
  const produced = useRef<unknown>(field.value);
  useEffect(() => {
    if (field.value !== produced.current && !sameJson(text, field.value)) {
      setText(formatJsonValue(field.value));
    }
    produced.current = field.value;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [field.value]);

  const parsed = parseJsonText(text);
  const parseError = parsed instanceof InvalidJson ? parsed : null;

  const change = (next: string) => {
    setText(next);
    const value = parseJsonText(next);
    produced.current = value;
    field.onChange(new Edited(value));
  };

  const format = () => {
    if (parseError) return;
    change(formatJsonValue(parsed));
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key.toLowerCase() === 'f' && e.shiftKey && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      format();
    }
  };

  const errorId = useId();
  const otherError = !parseError && invalid && (isSubmitted || isTouched) ? error?.message : undefined;
  const shownError = parseError
    ? translate('portal.kit.json.invalid_at', {
        line: parseError.line,
        column: parseError.column,
        message: parseError.message,
        _: `Invalid JSON (line ${parseError.line}, column ${parseError.column}): ${parseError.message}`,
      })
    : otherError
      ? translateError(translate, otherError)
      : undefined;

  return (
    <Box className={className} sx={[{ width: fullWidth ? '100%' : undefined, mb: 1 }, ...sxItems(sx)]} data-testid={`json-input-${source}`}>
      <Stack direction="row" alignItems="flex-end" justifyContent="space-between" sx={{ mb: 0.5 }}>
        <InputLabel htmlFor={id} error={!!shownError} shrink={false} sx={{ position: 'static', transform: 'none' }}>
          {label !== false ? <FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} /> : null}
        </InputLabel>
        {!readOnly && !disabled ? (
          <Button size="small" onClick={format} disabled={!!parseError || text.trim() === ''} aria-controls={id}>
            {translate('portal.kit.json.format', { _: 'Format' })}
          </Button>
        ) : null}
      </Stack>
      <TextField
        id={id}
        name={field.name}
        value={text}
        onChange={(e) => change(e.target.value)}
        onBlur={field.onBlur}
        onKeyDown={onKeyDown}
        inputRef={field.ref}
        multiline
        minRows={minRows}
        maxRows={24}
        fullWidth
        disabled={disabled}
        error={!!shownError}
        slotProps={{
          htmlInput: {
            spellCheck: false,
            readOnly,
            'aria-invalid': !!shownError,
            'aria-describedby': errorId,
            style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 },
          },
        }}
      />
      <FormHelperText id={errorId} error={!!shownError} role={shownError ? 'alert' : undefined}>
        {shownError ??
          (typeof helperText === 'string' ? translate(helperText, { _: helperText }) : helperText) ??
          translate('portal.kit.json.hint', { _: 'JSON; empty means none. Ctrl+Shift+F formats.' })}
      </FormHelperText>
    </Box>
  );
}

/** react-admin's validators return '@@react-admin@@{"message","args"}' strings. */
function translateError(translate: ReturnType<typeof useTranslate>, message: string): string {
  const prefix = '@@react-admin@@';
  if (!message.startsWith(prefix)) return translate(message, { _: message });
  try {
    const parsed = JSON.parse(message.slice(prefix.length)) as string | { message: string; args?: Record<string, unknown> };
    return typeof parsed === 'string' ? translate(parsed, { _: parsed }) : translate(parsed.message, { _: parsed.message, ...(parsed.args ?? {}) });
  } catch {
    return message;
  }
}
