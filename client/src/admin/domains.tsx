import { Avatar, Box, Card, CardContent, Typography } from '@mui/material';
import {
  AutocompleteInput,
  Create,
  Edit,
  List,
  ReferenceField,
  ReferenceInput,
  required,
  SearchInput,
  SimpleForm,
  TextInput,
  useRecordContext,
  useTranslate,
  Labeled,
  TextField,
} from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { useWatch } from 'react-hook-form';
import { JsonField } from '../kit/JsonField';
import { JsonInput, jsonObject } from '../kit/JsonInput';
import { ListActions } from '../kit/ListActions';
import { AccessEditToolbar } from '../kit/RecordButtons';
import { RowButtons } from '../kit/RecordButtons';
import { textOf } from '../../../shared/common/text';

/** Only a path on this site or an https address is shown as an image (as the server accepts). */
const assetUrl = (v: unknown): string | undefined => (typeof v === 'string' && /^(\/(?!\/)|https:\/\/)/.test(v) ? v : undefined);
const colour = (v: unknown): string | undefined => (typeof v === 'string' && /^#[0-9a-fA-F]{6}$/.test(v) ? v : undefined);

/** What a browser tab and the app bar would show for this branding (title, favicon, logo, colours). */
function BrandingPreview({ source }: { source: string }) {
  const translate = useTranslate();
  const data = useWatch({ name: source }) as Record<string, unknown> | null | undefined;
  const brand = data && typeof data === 'object' && !Array.isArray(data) ? data : {};
  const colors = (brand.colors && typeof brand.colors === 'object' ? brand.colors : {}) as Record<string, unknown>;
  const primary = colour(colors.primary) ?? '#0c5b74';
  const title = typeof brand.title === 'string' && brand.title ? brand.title : translate('portal.admin.domain.preview_untitled');
  const favicon = assetUrl(brand.favicon_url);
  const logo = assetUrl(brand.logo_url);
  return (
    <Card variant="outlined" sx={{ width: '100%', maxWidth: 520, mb: 2 }} data-testid="branding-preview">
      <CardContent>
        <Typography variant="overline">{translate('portal.admin.domain.preview')}</Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1, py: 0.5, bgcolor: 'action.hover', borderRadius: '8px 8px 0 0', maxWidth: 260 }}>
          {favicon ? <img src={favicon} alt="" width={16} height={16} /> : <Box sx={{ width: 16, height: 16, bgcolor: 'divider', borderRadius: 0.5 }} />}
          <Typography variant="body2" noWrap data-testid="branding-preview-title">
            {title}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, p: 1, bgcolor: primary, color: '#fff', borderRadius: '0 8px 8px 8px' }}>
          {logo ? <Avatar src={logo} alt="" variant="rounded" sx={{ width: 28, height: 28, bgcolor: 'transparent' }} /> : null}
          <Typography variant="subtitle1" noWrap>
            {typeof brand.owner_name === 'string' && brand.owner_name ? brand.owner_name : title}
          </Typography>
          {colour(colors.secondary) ? (
            <Box sx={{ ml: 'auto', width: 16, height: 16, borderRadius: '50%', bgcolor: colour(colors.secondary), border: '1px solid #fff' }} />
          ) : null}
        </Box>
      </CardContent>
    </Card>
  );
}

const CompanyPicker = () => (
  <ReferenceInput source="company_cuid" reference="company">
    <AutocompleteInput optionText="name" filterToQuery={(q: string) => ({ q })} sx={{ minWidth: 280 }} />
  </ReferenceInput>
);

const BRAND_HINT = 'portal.admin.domain.data_hint';

// ---- Root domains ------------------------------------------------------------------------------

export function RootDomainList() {
  return (
    <List
      actions={<ListActions />}
      filters={[<SearchInput key="q" source="q" alwaysOn />]}
      sort={{ field: 'name', order: 'ASC' }}
      data-testid="root-domain-list"
    >
      <DataTable rowClick={false} bulkActionButtons={false}>
        <DataTable.Col source="name" />
        <DataTable.Col source="company_cuid" disableSort>
          <ReferenceField source="company_cuid" reference="company" link={false} emptyText="—" />
        </DataTable.Col>
        <DataTable.Col source="root_domain_data" disableSort>
          <JsonField source="root_domain_data" compact />
        </DataTable.Col>
        <DataTable.Col label="" disableSort>
          <RowButtons />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

export function RootDomainCreate() {
  return (
    <Create redirect="list">
      <SimpleForm defaultValues={{ root_domain_data: {} }}>
        <TextInput source="name" validate={required()} helperText="portal.admin.domain.name_hint" />
        <CompanyPicker />
        <JsonInput source="root_domain_data" validate={jsonObject} helperText={BRAND_HINT} />
        <BrandingPreview source="root_domain_data" />
      </SimpleForm>
    </Create>
  );
}

export function RootDomainEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list">
      <SimpleForm toolbar={<AccessEditToolbar />}>
        <Labeled>
          <TextField source="name" />
        </Labeled>
        <CompanyPicker />
        <JsonInput source="root_domain_data" validate={jsonObject} helperText={BRAND_HINT} />
        <BrandingPreview source="root_domain_data" />
      </SimpleForm>
    </Edit>
  );
}

// ---- Domains -----------------------------------------------------------------------------------

/** The full host name follows from the sub-domain and the root: "acme" + "example.africa". */
function DomainNameFromParts() {
  const translate = useTranslate();
  const sub = (useWatch({ name: 'sub_domain_name' }) as string | undefined) ?? '';
  const root = (useWatch({ name: 'root_domain_name' }) as string | undefined) ?? '';
  const name = sub.trim() ? `${sub.trim().toLowerCase()}.${root}` : root;
  return (
    <Typography variant="body2" sx={{ mb: 1 }} data-testid="domain-name-preview">
      {translate('resources.domain.fields.name')}: <strong>{name || '—'}</strong>
    </Typography>
  );
}

const domainFilters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <ReferenceInput key="root_domain_name" source="root_domain_name" reference="rootDomain" alwaysOn>
    <AutocompleteInput optionText="name" filterToQuery={(q: string) => ({ q })} sx={{ minWidth: 220 }} />
  </ReferenceInput>,
];

export function DomainList() {
  return (
    <List actions={<ListActions />} filters={domainFilters} sort={{ field: 'name', order: 'ASC' }} data-testid="domain-list">
      <DataTable rowClick={false} bulkActionButtons={false}>
        <DataTable.Col source="name" />
        <DataTable.Col source="sub_domain_name" />
        <DataTable.Col source="root_domain_name" />
        <DataTable.Col source="company_cuid" disableSort>
          <ReferenceField source="company_cuid" reference="company" link={false} emptyText="—" />
        </DataTable.Col>
        <DataTable.Col source="domain_data" disableSort>
          <JsonField source="domain_data" compact />
        </DataTable.Col>
        <DataTable.Col label="" disableSort>
          <RowButtons />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

/** The server checks name = sub_domain_name.root_domain_name; the form fills it in. */
const withName = (data: Record<string, unknown>) => {
  const sub = textOf(data.sub_domain_name ?? '')
    .trim()
    .toLowerCase();
  const root = textOf(data.root_domain_name ?? '');
  return { ...data, sub_domain_name: sub, name: sub ? `${sub}.${root}` : root };
};

export function DomainCreate() {
  return (
    <Create redirect="list" transform={withName}>
      <SimpleForm defaultValues={{ domain_data: {}, sub_domain_name: '' }}>
        <TextInput source="sub_domain_name" helperText="portal.admin.domain.sub_hint" parse={(v: string) => v ?? ''} />
        <ReferenceInput source="root_domain_name" reference="rootDomain">
          <AutocompleteInput optionText="name" filterToQuery={(q: string) => ({ q })} validate={required()} sx={{ minWidth: 280 }} />
        </ReferenceInput>
        <DomainNameFromParts />
        <CompanyPicker />
        <JsonInput source="domain_data" validate={jsonObject} helperText={BRAND_HINT} />
        <BrandingPreview source="domain_data" />
      </SimpleForm>
    </Create>
  );
}

function DomainTitle() {
  const record = useRecordContext();
  return <span>{record ? String(record.name) : ''}</span>;
}

export function DomainEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list" title={<DomainTitle />}>
      <SimpleForm toolbar={<AccessEditToolbar />}>
        <Labeled>
          <TextField source="name" />
        </Labeled>
        <CompanyPicker />
        <JsonInput source="domain_data" validate={jsonObject} helperText={BRAND_HINT} />
        <BrandingPreview source="domain_data" />
      </SimpleForm>
    </Edit>
  );
}
