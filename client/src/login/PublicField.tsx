import type { InputHTMLAttributes, Ref } from 'react';

/**
 * One labelled input of the login and the public account pages: the label, the input (its id is
 * also its test id), and the field's error under it, tied together for screen readers. Plain
 * React: it stays in the login chunk.
 */
export function PublicField(
  props: {
    id: string;
    label: string;
    /** The error text already translated; none → the field is valid. */
    error?: string;
    /** Another element describing the input (a hint), before the error. */
    describedBy?: string;
    inputRef?: Ref<HTMLInputElement>;
    onValue: (value: string) => void;
  } & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'onChange'>,
) {
  const { id, label, error, describedBy, inputRef, onValue, ...input } = props;
  const errorId = `${id}-error`;
  const described = [describedBy, error ? errorId : undefined].filter(Boolean).join(' ');
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        ref={inputRef}
        {...input}
        onChange={(e) => onValue(e.target.value)}
        aria-invalid={!!error}
        aria-describedby={described || undefined}
        data-testid={id}
      />
      {error && (
        <span id={errorId} className="login-field-error">
          {error}
        </span>
      )}
    </>
  );
}
