import { isValidElement, useContext } from 'react';
import { CreateButton, FilterButton, FilterContext, TopToolbar, useCanAccess, useResourceContext } from 'react-admin';
import { ExportCsvButton } from './ExportCsvButton';
import { csvImportOf } from '../../../shared/access/resources';
import { ImportButton } from './ImportButton';

export interface ListActionsProps {
  /** Hide the create button (e.g. a list whose records are made elsewhere). */
  noCreate?: boolean;
}

/**
 * The top bar of every back-office list: filters (when the list has any), create (only when
 * the user may), CSV export of the filtered list, CSV import (resources with a `csv` entry in
 * server/src/access/resources.ts, whose columns it takes; users who may create).
 */
export function ListActions({ noCreate }: ListActionsProps) {
  const resource = useResourceContext() ?? '';
  const csv = csvImportOf(resource);
  const filters = useContext(FilterContext);
  const { canAccess: canCreate } = useCanAccess({ resource, action: 'create' });
  const hasHiddenFilters = (filters ?? []).some((f) => isValidElement(f) && !(f.props as { alwaysOn?: boolean }).alwaysOn);
  return (
    <TopToolbar>
      {hasHiddenFilters ? <FilterButton /> : null}
      {canCreate && !noCreate ? <CreateButton /> : null}
      <ExportCsvButton />
      {csv && canCreate ? <ImportButton fields={csv.fields} ignore={csv.ignore} names={csv.names} /> : null}
    </TopToolbar>
  );
}
