import DownloadIcon from '@mui/icons-material/GetApp';
import { useState } from 'react';
import { Button, downloadCSV, useDataProvider, useListContext, useNotify, useResourceContext, type DataProvider, type RaRecord } from 'react-admin';
import { recordsToCsv } from './csv';

const PAGE = 1000;

/** Every record of a filtered, sorted list, page after page (the server gives at most 1,000 a call). */
export async function fetchAllRecords(
  dataProvider: DataProvider,
  resource: string,
  filter: Record<string, unknown>,
  sort: { field: string; order: 'ASC' | 'DESC' } | undefined,
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const { data, total } = await dataProvider.getList(resource, { filter, sort: sort ?? { field: 'id', order: 'ASC' }, pagination: { page, perPage: PAGE } });
    out.push(...(data as Record<string, unknown>[]));
    if (data.length < PAGE || (total !== undefined && out.length >= total)) return out;
  }
}

/** CSV of the FILTERED list: all pages, every field (JSON columns as JSON text). */
export function ExportCsvButton() {
  const list = useListContext<RaRecord>();
  const { sort, total } = list;
  const filterValues = list.filterValues as Record<string, unknown> | undefined;
  const resource = useResourceContext() ?? '';
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      const records = await fetchAllRecords(dataProvider, resource, filterValues ?? {}, sort);
      downloadCSV(recordsToCsv(records), resource);
    } catch (error) {
      notify('portal.kit.export.failed', { type: 'error', messageArgs: { message: error instanceof Error ? error.message : String(error) } });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button label="portal.kit.export.button" onClick={onClick} disabled={busy || total === 0} data-testid="export-csv">
      <DownloadIcon />
    </Button>
  );
}
