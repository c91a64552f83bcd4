import { LocalTextField } from '../kit/LocalTextField';
import { FrenchInput } from '../kit/FrenchInput';
import {
  ChipField,
  Create,
  Edit,
  List,
  SearchInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextArrayInput,
  TextField,
  TextInput,
  required,
  useRecordContext,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { Stack } from '@mui/material';
import { EditOrShow } from './common';
import { ListActions } from '../kit/ListActions';
import { textOf } from '../../../shared/common/text';

/** A variant is a spelling ("kwh") or, in older data, { unit, factor } ("kW ×0.001"). */
function variantLabel(v: unknown): string {
  if (v && typeof v === 'object' && 'unit' in v) {
    const { unit, factor } = v as { unit: unknown; factor?: unknown };
    return factor === undefined ? String(unit) : `${String(unit)} ×${textOf(factor)}`;
  }
  return String(v);
}

/** The other spellings of a unit ("kW·h", "kwh" …) as chips. */
function Variants(_props: { label?: string }) {
  const record = useRecordContext();
  const variants = (record?.unit_variants ?? []) as unknown[];
  if (!variants.length) return <span>—</span>;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
      {variants.map((v) => {
        const label = variantLabel(v);
        return <ChipField key={label} record={{ id: label, v: label }} source="v" size="small" />;
      })}
    </Stack>
  );
}

const filters = [<SearchInput key="q" source="q" alwaysOn />];

export function UnitList() {
  return (
    <List actions={<ListActions />} filters={filters} sort={{ field: 'unit', order: 'ASC' }}>
      <DataTable rowClick="show">
        <DataTable.Col source="unit" />
        <DataTable.Col source="description" disableSort>
          <LocalTextField source="description" />
        </DataTable.Col>
        <DataTable.Col source="unit_variants" disableSort>
          <Variants />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

export function UnitShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="unit" />
        <LocalTextField source="description" emptyText="—" />
        <Variants label="resources.unit.fields.unit_variants" />
      </SimpleShowLayout>
    </Show>
  );
}

const inputs = (
  <>
    <TextInput source="unit" validate={required()} />
    <TextInput source="description" multiline />
    <FrenchInput source="description" multiline />
    <TextArrayInput
      source="unit_variants"
      helperText="portal.catalogue.unit_variants_help"
      format={(value: unknown) => (Array.isArray(value) ? value.map(variantLabel) : [])}
    />
  </>
);

/** Variants left as they were are not sent (older { unit, factor } variants stay intact). */
const keepUnchangedVariants = (data: Record<string, unknown>, options?: { previousData?: Record<string, unknown> }) => {
  const { unit_variants, ...rest } = data;
  return JSON.stringify(unit_variants) === JSON.stringify(options?.previousData?.unit_variants) ? rest : data;
};

export function UnitEdit() {
  return (
    <EditOrShow show={UnitShow}>
      <Edit mutationMode="pessimistic" redirect="show" transform={keepUnchangedVariants}>
        <SimpleForm>{inputs}</SimpleForm>
      </Edit>
    </EditOrShow>
  );
}

export function UnitCreate() {
  return (
    <Create redirect="show">
      <SimpleForm defaultValues={{ unit_variants: [] }}>{inputs}</SimpleForm>
    </Create>
  );
}
