import { DataTable, List, SearchInput, useTranslate } from 'react-admin';
import { usePageTitle } from '../layout/brand';

/** /system: the systems the user may see (system.getList), searchable by name and asset number. */
export default function SystemList() {
  const translate = useTranslate();
  usePageTitle(translate('portal.system.list_title'));
  return (
    <List
      title="portal.system.list_title"
      filters={[<SearchInput key="q" source="q" alwaysOn placeholder={translate('portal.system.search')} />]}
      sort={{ field: 'name', order: 'ASC' }}
      exporter={false}
      data-testid="system-list"
    >
      <DataTable rowClick={(id) => `/systems/${encodeURIComponent(String(id))}`} bulkActionButtons={false}>
        <DataTable.Col source="name" label="portal.system.name" />
        <DataTable.Col source="timezone" label="portal.system.timezone" />
        <DataTable.Col source="asset_number" label="portal.system.asset_number" />
        <DataTable.Col source="deployment_date" label="portal.system.deployment_date" />
      </DataTable>
    </List>
  );
}
