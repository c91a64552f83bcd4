import { AutocompleteInput, ReferenceInput } from 'react-admin';

/** A system picked by name (autocomplete over system.getList q). */
export function SystemInput(props: { source: string; alwaysOn?: boolean; required?: boolean; disabled?: boolean; label?: string }) {
  const { required: isRequired, disabled, alwaysOn: _alwaysOn, ...rest } = props;
  return (
    <ReferenceInput reference="system" {...rest}>
      <AutocompleteInput
        optionText="name"
        filterToQuery={(q: string) => ({ q })}
        sx={{ minWidth: 280 }}
        disabled={disabled}
        validate={isRequired ? requiredValidator : undefined}
      />
    </ReferenceInput>
  );
}

export const requiredValidator = (v: unknown) => (v === undefined || v === null || v === '' ? 'ra.validation.required' : undefined);
