import { AutocompleteInput, ReferenceInput, SelectInput, required, type Validator } from 'react-admin';
import { CONTROLLER_ID_PATTERN } from '../../../shared/common/enums';
import { useSession } from '../session/SessionProvider';

export { TIMEZONE_CHOICES } from '../systems/fields';

/** Latitude/longitude: empty, or a number within the range. */
export const inRange =
  (min: number, max: number, message: string): Validator =>
  (value: unknown) => {
    if (value === null || value === undefined || value === '') return undefined;
    const n = typeof value === 'number' ? value : Number(value);
    return Number.isFinite(n) && n >= min && n <= max ? undefined : { message, args: { min, max, _: `Between ${min} and ${max}` } };
  };

export const validControllerId: Validator = (value: unknown) =>
  typeof value === 'string' && CONTROLLER_ID_PATTERN.test(value.trim()) ? undefined : 'portal.fleet.controller_id_pattern';

/** Empty text → null (nullable text columns). */
export const emptyToNull = (v: unknown) => (v === '' ? null : v);

/**
 * The owner company of a new record: the user's own companies (their memberships) as a select,
 * preset when there is one; a superuser picks any company.
 */
export function CompanyInput({ source = 'company_cuid' }: { source?: string }) {
  const { context } = useSession();
  if (context?.isSuperUser) {
    return (
      <ReferenceInput source={source} reference="company">
        <AutocompleteInput optionText="name" validate={required()} filterToQuery={(q) => ({ q })} />
      </ReferenceInput>
    );
  }
  const seen = new Set<string>();
  const choices = (context?.memberships ?? [])
    .filter((m) => (seen.has(m.company_cuid) ? false : (seen.add(m.company_cuid), true)))
    .map((m) => ({ id: m.company_cuid, name: m.company.name }));
  return <SelectInput source={source} choices={choices} validate={required()} defaultValue={choices.length === 1 ? choices[0].id : undefined} />;
}

/** Keeps JSON columns objects (an emptied editor means {}). */
export const jsonObjects =
  (...sources: string[]) =>
  (data: Record<string, unknown>) => {
    const out = { ...data };
    for (const s of sources) if (out[s] === null || out[s] === undefined || out[s] === '') out[s] = {};
    return out;
  };
