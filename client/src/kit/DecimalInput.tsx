import TextField from '@mui/material/TextField';
import { useEffect, useEffectEvent, useRef, useState, type ChangeEvent, type FocusEvent } from 'react';
import { FieldTitle, InputHelperText, useInput, type InputProps, type Validator } from 'react-admin';
import { parseDecimal } from './decimal';
import { textOf } from '../../../shared/common/text';

export interface DecimalInputProps extends Omit<InputProps, 'format' | 'parse'> {
  /** Whole numbers only (digits). */
  integer?: boolean;
  helperText?: string | false;
  label?: string | false;
  className?: string;
  disabled?: boolean;
  readOnly?: boolean;
}

const asText = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : textOf(value);

/**
 * The one number field of the portal, in place of react-admin's NumberInput: a text input (the
 * browser's type=number silently drops a comma, so "3,3792" became 33792) read by parseDecimal.
 * A dot or a comma is the decimal separator; what cannot be read unambiguously stays in the form
 * as text and gets a field error, so the record never gets another number than the one typed.
 */
export function DecimalInput(props: DecimalInputProps) {
  const { integer = false, helperText, label, className, validate, source, resource, disabled, readOnly, ...rest } = props;
  const readable: Validator = (value: unknown) => {
    if (typeof value !== 'string') return undefined;
    const read = parseDecimal(value, { integer });
    return read.ok ? undefined : read.message;
  };
  const {
    field,
    fieldState: { error, invalid },
    id,
    isRequired,
  } = useInput({
    ...rest,
    source,
    resource,
    disabled,
    readOnly,
    defaultValue: rest.defaultValue ?? null,
    validate: [readable, ...(Array.isArray(validate) ? validate : validate ? [validate] : [])],
  });

  // The text as typed is shown while the field has the focus; the number read from it is in the form.
  const [text, setText] = useState(asText(field.value));
  const focused = useRef(false);
  // The typed text stays as long as it means the form's value ("3,5" is not rewritten "3.5").
  const follow = (current: string) => {
    if (current === asText(field.value)) return current;
    const read = parseDecimal(current, { integer });
    return read.ok && read.value === field.value ? current : asText(field.value);
  };
  // A new form value (a reset, a value set elsewhere) shows unless the field is being typed in.
  const showValue = useEffectEvent(() => {
    if (!focused.current) setText(follow);
  });
  useEffect(() => showValue(), [field.value]);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const typed = event.target.value;
    setText(typed);
    const read = parseDecimal(typed, { integer });
    field.onChange(read.ok ? read.value : typed);
  };
  const onFocus = () => {
    focused.current = true;
  };
  const onBlur = (_event: FocusEvent<HTMLInputElement>) => {
    focused.current = false;
    field.onBlur();
    setText(follow);
  };

  const { ref, ...fieldRest } = field;
  return (
    <TextField
      id={id}
      name={fieldRest.name}
      inputRef={ref}
      value={text}
      onChange={onChange}
      onFocus={onFocus}
      onBlur={onBlur}
      className={['ra-input', `ra-input-${source}`, className].filter(Boolean).join(' ')}
      type="text"
      size="small"
      error={invalid}
      disabled={disabled || readOnly}
      helperText={helperText !== false || invalid ? <InputHelperText error={error?.message} helperText={helperText} /> : null}
      label={label !== '' && label !== false ? <FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} /> : null}
      slotProps={{
        htmlInput: {
          inputMode: integer ? 'numeric' : 'decimal',
          autoComplete: 'off',
          readOnly,
        },
      }}
    />
  );
}
