import { LocalTextField } from '../kit/LocalTextField';
import { List } from 'react-admin';
import { ResponsiveDataTable as DataTable } from '../kit/ResponsiveDataTable';
import { RoleChipField } from './roles-ui';

/** The four roles of spec §6, read-only, with their level colours. */
export function RoleList() {
  return (
    <List sort={{ field: 'level', order: 'ASC' }} actions={false} pagination={false} data-testid="role-list">
      <DataTable rowClick={false} bulkActionButtons={false}>
        <DataTable.Col source="level">
          <RoleChipField />
        </DataTable.Col>
        <DataTable.Col source="name">
          <LocalTextField source="name" />
        </DataTable.Col>
        <DataTable.Col source="description" disableSort>
          <LocalTextField source="description" emptyText="—" />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}
