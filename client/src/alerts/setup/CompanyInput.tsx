import { AutocompleteInput, ReferenceInput } from 'react-admin';
import { useSession } from '../../session/SessionProvider';
import { requiredValidator } from '../../kit/pickers';

/** A company picked by name; in a form, a user of one company finds it already picked. */
export function CompanyInput(props: { source: string; alwaysOn?: boolean; required?: boolean; disabled?: boolean; label?: string }) {
  const { required: isRequired, disabled, alwaysOn, ...rest } = props;
  const { context } = useSession();
  const own = [...new Set((context?.memberships ?? []).map((m) => m.company_cuid))];
  const only = !alwaysOn && !context?.isSuperUser && own.length === 1 ? own[0] : undefined;
  return (
    <ReferenceInput reference="company" {...rest}>
      <AutocompleteInput
        optionText="name"
        filterToQuery={(q: string) => ({ q })}
        sx={{ minWidth: 280 }}
        disabled={disabled}
        validate={isRequired ? requiredValidator : undefined}
        defaultValue={only}
      />
    </ReferenceInput>
  );
}
