import { Box } from '@mui/material';
import { AutocompleteInput, DeleteWithConfirmButton, EditButton, ReferenceInput, useCanAccess, useResourceContext } from 'react-admin';
import { useCurrentRecordAccess } from '../../kit/useRecordAccess';
import { useSession } from '../../session/SessionProvider';

/** Edit and delete of a row, each shown only when `<resource>.access` allows it for that record. */
export function RowButtons() {
  const access = useCurrentRecordAccess();
  return (
    <Box sx={{ display: 'flex', gap: 0.5, justifyContent: 'flex-end' }}>
      {access.edit ? <EditButton /> : null}
      {access.delete ? <DeleteWithConfirmButton mutationMode="pessimistic" /> : null}
    </Box>
  );
}

/** Whether the coarse rule lets the user change this resource at all (for save buttons). */
export function useMayEdit(): boolean {
  const resource = useResourceContext() ?? '';
  const access = useCurrentRecordAccess();
  const { canAccess } = useCanAccess({ resource, action: 'edit' });
  return !!canAccess && access.edit;
}

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

const requiredValidator = (v: unknown) => (v === undefined || v === null || v === '' ? 'ra.validation.required' : undefined);
