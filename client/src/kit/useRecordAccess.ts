import { useQuery } from '@tanstack/react-query';
import { useListContextWithProps, useRecordContext, useResourceContext, type Identifier, type RaRecord } from 'react-admin';
import { trpc } from '../trpc';
import { ownEntry } from '../../../shared/common/own-entry';

export interface RecordAccess {
  edit: boolean;
  delete: boolean;
}
export type AccessMap = Record<string, RecordAccess>;

type AccessProcedure = { access: { query(input: { ids: string[] }): Promise<{ data: AccessMap }> } };

/** Asks `<resource>.access` (per visible record, the server's own §6 rules) about some ids. */
export async function fetchRecordAccess(resource: string, ids: Identifier[]): Promise<AccessMap> {
  if (ids.length === 0) return {};
  const procedure = (trpc as unknown as Record<string, AccessProcedure>)[resource];
  if (!procedure?.access) return {};
  // Chunks of 100 keep each GET well under the URL limits.
  const out: AccessMap = {};
  for (let i = 0; i < ids.length; i += 100) {
    const { data } = await procedure.access.query({ ids: ids.slice(i, i + 100).map(String) });
    Object.assign(out, data);
  }
  return out;
}

/**
 * Whether the caller may edit and delete each record (`<resource>.access`). The coarse
 * `canAccess` only knows levels; this knows shares, ownership … A record missing from the answer
 * (not visible) or still loading counts as "no". Same resource + ids = one request, shared by
 * every row that asks.
 */
export function useRecordAccess(resource: string, ids: Identifier[]) {
  const key = ids.map(String).sort();
  const query = useQuery({
    queryKey: [resource, 'access', key],
    queryFn: () => fetchRecordAccess(resource, key),
    enabled: key.length > 0,
    staleTime: 10_000,
  });
  const data = query.data ?? {};
  return {
    isPending: key.length > 0 && query.isPending,
    access: data,
    canEdit: (id: Identifier) => ownEntry(data, String(id))?.edit === true,
    canDelete: (id: Identifier) => ownEntry(data, String(id))?.delete === true,
    refetch: query.refetch,
  };
}

/**
 * Access to the record in context. Inside a list, asks once for the whole page (every row uses
 * the same query), elsewhere for this record alone.
 */
export function useCurrentRecordAccess(props: { record?: RaRecord; resource?: string } = {}) {
  const record = useRecordContext(props);
  const resource = useResourceContext(props) ?? '';
  const list = useListContextWithProps({});
  const pageIds = (list?.data ?? []).map((r: RaRecord) => r.id);
  const inList = record !== undefined && pageIds.some((id) => String(id) === String(record.id));
  const ids = inList ? pageIds : record ? [record.id] : [];
  const result = useRecordAccess(resource, ids);
  return {
    isPending: result.isPending,
    edit: record ? result.canEdit(record.id) : false,
    delete: record ? result.canDelete(record.id) : false,
  };
}
