import { AutocompleteInput, BooleanInput, List, ReferenceInput, SearchInput, SelectInput, TextField, useCanAccess, useTranslate } from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { ActiveAlarmsField, EnergyTodayField, LastContactField, OFFLINE_FOR_CHOICES, SocField, STATE_CHOICES, StateField, SystemNameLink } from './list-state';
import { BulkActions } from '../kit/BulkActions';
import { ListActions } from '../kit/ListActions';
import { AccessDeleteButton, AccessEditButton } from '../kit/RecordButtons';
import { usePageTitle } from '../theme/brand';
import { TIMEZONE_CHOICES } from './fields';

/**
 * /system: the systems the user may see (system.getList), searchable by name and asset number,
 * filtered by site and time zone, by state, in alarm and offline for more than (issue 13); each row
 * shows its online state, last contact, active alarms, SoC and today's energy. A row opens the system
 * page (the name is a real link: Tab to it, Enter opens), the pencil its back-office edit.
 * The site column shows the name the list carries (site_name): a role that may not read sites
 * (Basic) sees it too, and gets no site filter.
 */
export default function SystemList() {
  const translate = useTranslate();
  usePageTitle(translate('portal.system.list_title'));
  const { canAccess: maySeeSites } = useCanAccess({ resource: 'site', action: 'list' });
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('portal.system.search')} />,
    ...(maySeeSites
      ? [
          <ReferenceInput key="site" source="site_cuid" reference="site">
            <AutocompleteInput optionText="name" filterToQuery={(q) => ({ q })} label="resources.system.fields.site_cuid" />
          </ReferenceInput>,
        ]
      : []),
    <SelectInput key="tz" source="timezone" choices={TIMEZONE_CHOICES} label="portal.system.timezone" />,
    // State filters (issue 13): the list's online_state, in alarm, offline for more than.
    <SelectInput key="state" source="state" choices={STATE_CHOICES} label="portal.lists.state" />,
    <BooleanInput key="in_alarm" source="in_alarm" label="portal.lists.in_alarm" defaultValue />,
    <SelectInput key="offline" source="offline_for_hours" choices={OFFLINE_FOR_CHOICES} label="portal.lists.offline_for" />,
  ];
  return (
    <List
      title="portal.system.list_title"
      filters={filters}
      sort={{ field: 'name', order: 'ASC' }}
      actions={<ListActions />}
      exporter={false}
      data-testid="system-list"
    >
      <DataTable
        rowClick={(id) => `/systems/${encodeURIComponent(String(id))}`}
        // At phone width a row shows the name, the state chip, last contact, SoC and site; a tap opens the system page.
        phone={{ primary: <TextField source="name" />, secondary: ['last_contact', 'soc', 'site_cuid'] }}
        bulkActionButtons={
          <BulkActions
            edit={[
              { source: 'site_cuid', label: 'resources.system.fields.site_cuid', reference: { resource: 'site', optionText: 'name' }, nullable: true },
              { source: 'timezone', label: 'portal.system.timezone', choices: TIMEZONE_CHOICES },
            ]}
          />
        }
      >
        <DataTable.Col source="name" label="portal.system.name">
          <SystemNameLink />
        </DataTable.Col>
        <DataTable.Col source="online_state" label="portal.lists.state">
          <StateField />
        </DataTable.Col>
        <DataTable.Col source="last_contact" label="portal.lists.last_contact">
          <LastContactField />
        </DataTable.Col>
        <DataTable.Col source="active_alarms" label="portal.lists.active_alarms" align="right">
          <ActiveAlarmsField />
        </DataTable.Col>
        <DataTable.Col source="soc" label="portal.lists.soc" align="right">
          <SocField />
        </DataTable.Col>
        <DataTable.Col source="energy_today_kwh" label="portal.lists.energy_today" align="right">
          <EnergyTodayField />
        </DataTable.Col>
        <DataTable.Col source="site_cuid" label="resources.system.fields.site_cuid" disableSort>
          <TextField source="site_name" emptyText="" />
        </DataTable.Col>
        <DataTable.Col source="company_cuid" label="resources.system.fields.company_cuid" disableSort>
          <TextField source="company_name" emptyText="" />
        </DataTable.Col>
        <DataTable.Col source="timezone" label="portal.system.timezone" />
        <DataTable.Col source="asset_number" label="portal.system.asset_number" />
        <DataTable.Col source="deployment_date" label="portal.system.deployment_date" />
        <DataTable.Col label="" disableSort>
          <AccessEditButton />
          <AccessDeleteButton />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}
