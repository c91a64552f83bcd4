import { TablePagination as MuiTablePagination, type TablePaginationProps } from '@mui/material';
import { useTranslate } from 'react-admin';

/**
 * MUI's table pagination in the user's language: its own labels ("Rows per page:", "1–10 of 25",
 * "Go to next page") are English only; these come from react-admin's navigation messages, the
 * ones its own list pagination shows, so every pager of the portal reads the same.
 */
export function TablePagination(props: TablePaginationProps<'div'>) {
  const translate = useTranslate();
  return (
    <MuiTablePagination
      labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
      labelDisplayedRows={({ from, to, count }) =>
        translate(count === -1 ? 'ra.navigation.partial_page_range_info' : 'ra.navigation.page_range_info', {
          offsetBegin: from,
          offsetEnd: to,
          total: count,
        })
      }
      getItemAriaLabel={(type) => translate(`ra.navigation.${type}`)}
      {...props}
    />
  );
}
