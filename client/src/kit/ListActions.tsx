import { isValidElement, useContext } from 'react';
import { CreateButton, FilterButton, FilterContext, TopToolbar, useCanAccess, useResourceContext } from 'react-admin';
import { ExportCsvButton } from './ExportCsvButton';
import { ImportButton, type ImportButtonProps } from './ImportButton';

export interface ListActionsProps {
  /** Import from CSV (`<resource>.importMany`): the columns it takes. Omit for lists that do not import. */
  importable?: ImportButtonProps;
  /** Hide the create button (e.g. a list whose records are made elsewhere). */
  noCreate?: boolean;
}

/**
 * The top bar of every back-office list: filters (when the list has any), create (only when
 * the user may), CSV export of the filtered list, CSV import (importable lists, users who may create).
 */
export function ListActions({ importable, noCreate }: ListActionsProps) {
  const resource = useResourceContext() ?? '';
  const filters = useContext(FilterContext);
  const { canAccess: canCreate } = useCanAccess({ resource, action: 'create' });
  const hasHiddenFilters = (filters ?? []).some((f) => isValidElement(f) && !(f.props as { alwaysOn?: boolean }).alwaysOn);
  return (
    <TopToolbar>
      {hasHiddenFilters ? <FilterButton /> : null}
      {canCreate && !noCreate ? <CreateButton /> : null}
      <ExportCsvButton />
      {importable && canCreate ? <ImportButton {...importable} /> : null}
    </TopToolbar>
  );
}
