import { NumberField } from './fields';
import { Box, useMediaQuery, type Theme } from '@mui/material';
import { Children, cloneElement, createContext, Fragment, isValidElement, useContext, type ReactElement, type ReactNode } from 'react';
import {
  DataTable,
  type DataTableProps,
  ListNoResults,
  type RaRecord,
  ReferenceField,
  SimpleList,
  TextField,
  useResourceContext,
  useTranslate,
  useTranslateLabel,
} from 'react-admin';

/**
 * What a record's row shows at phone width. Each entry is a field element (rendered in the row's
 * record context) or a column source. Left out, they come from the table's columns: primary the
 * `name` column (else the first), status the state/status column, secondary the next columns.
 */
export interface PhoneRow {
  primary?: ReactElement | string;
  secondary?: (ReactElement | string)[];
  status?: ReactElement | string;
}

type ColProps = { source?: string; label?: unknown; children?: ReactNode; options?: Intl.NumberFormatOptions };
type RowClick = DataTableProps['rowClick'];

/** Columns shown as "label: value" under the primary text (more make a row hard to read on a phone). */
const SECONDARY_MAX = 3;
const STATUS_SOURCES = ['online_state', 'state', 'status'];

/** True inside a phone row: a field that links (a reference) renders text instead, the whole row is the link. */
const PhoneRowContext = createContext(false);
export function useInPhoneRow(): boolean {
  return useContext(PhoneRowContext);
}

export const phoneQuery = (theme: Theme) => theme.breakpoints.down('sm');

/** True below the `sm` breakpoint (600 px): a phone held upright. */
export function useIsPhone(): boolean {
  return useMediaQuery(phoneQuery, { noSsr: true });
}

function columnsOf(children: ReactNode): ReactElement<ColProps>[] {
  const out: ReactElement<ColProps>[] = [];
  Children.forEach(children, (child) => {
    if (!isValidElement<ColProps>(child)) return;
    if (child.type === Fragment) out.push(...columnsOf(child.props.children));
    else if (child.props.source) out.push(child);
  });
  return out;
}

/** The field a column renders: its own child (a reference as text: the whole row is the link), else the number or text of its source. */
function fieldOf(col: ReactElement<ColProps>): ReactElement {
  const { source = '', children, options } = col.props;
  if (isValidElement(children)) return children.type === ReferenceField ? cloneElement(children as ReactElement<{ link?: false }>, { link: false }) : children;
  if (col.type === DataTable.NumberCol) return <NumberField source={source} options={options} />;
  return <TextField source={source} emptyText="" />;
}

function asField(entry: ReactElement | string, cols: ReactElement<ColProps>[]): ReactElement {
  if (typeof entry !== 'string') return entry;
  const col = cols.find((c) => c.props.source === entry);
  return col ? fieldOf(col) : <TextField source={entry} emptyText="" />;
}

/** Where a tap on a row leads: the table's own row click, else the record's edit page (Edit/Delete live there). */
function phoneRowClick(rowClick: RowClick): NonNullable<RowClick> {
  if (rowClick === undefined || rowClick === false) return 'edit';
  return rowClick;
}

/**
 * react-admin's DataTable on a desktop; below `sm` each record is one readable, tappable row
 * (primary text, up to three "label: value" lines, a status chip on the right) in a SimpleList,
 * so no table wider than the phone. Create stays in the list's top bar, Edit and Delete on the
 * record's page a tap opens. Use it like DataTable (same props and columns) plus `phone`.
 */
export function ResponsiveDataTable<R extends RaRecord = RaRecord>({ phone, ...props }: DataTableProps<R> & { phone?: PhoneRow }) {
  const isPhone = useIsPhone();
  const resource = useResourceContext(props) ?? '';
  const translateLabel = useTranslateLabel();
  const translate = useTranslate();
  if (!isPhone) return <DataTable<R> {...props} />;
  const cols = columnsOf(props.children);
  const primaryCol = cols.find((c) => c.props.source === 'name') ?? cols[0];
  const statusCol = cols.find((c) => STATUS_SOURCES.includes(c.props.source ?? ''));
  const primary = phone?.primary ? asField(phone.primary, cols) : primaryCol ? fieldOf(primaryCol) : undefined;
  const status = phone?.status ? asField(phone.status, cols) : statusCol ? fieldOf(statusCol) : undefined;
  const secondarySources =
    phone?.secondary ??
    cols
      .filter((c) => c !== primaryCol && c !== statusCol)
      .slice(0, SECONDARY_MAX)
      .map((c) => c.props.source ?? '');
  const secondary = secondarySources.map((entry, i) => {
    const source = typeof entry === 'string' ? entry : ((entry.props as { source?: string }).source ?? '');
    const col = cols.find((c) => c.props.source === source);
    const label = translateLabel({ label: col?.props.label as string | undefined, resource, source });
    return (
      <Box component="span" key={`${source}-${i}`} sx={{ display: 'block', overflowWrap: 'anywhere' }}>
        {label ? `${translate('portal.kit.phone_label', { label })} ` : ''}
        {asField(entry, cols)}
      </Box>
    );
  });
  return (
    <PhoneRowContext.Provider value>
      <SimpleList<R>
        data-testid="phone-list"
        empty={<Box data-testid="phone-list-empty">{props.empty ?? <ListNoResults />}</Box>}
        primaryText={
          primary ? (
            <Box component="span" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
              {primary}
            </Box>
          ) : undefined
        }
        secondaryText={secondary.length ? <>{secondary}</> : undefined}
        tertiaryText={status}
        rowClick={phoneRowClick(props.rowClick) as never}
        sx={{
          '& .MuiListItemButton-root': { minHeight: 56 },
          // A link a field renders inside a row (a reference) is text there: a tap anywhere opens the row's record.
          '& .MuiListItemButton-root a': { pointerEvents: 'none', color: 'inherit', textDecoration: 'none' },
        }}
      />
    </PhoneRowContext.Provider>
  );
}

ResponsiveDataTable.Col = DataTable.Col;
ResponsiveDataTable.NumberCol = DataTable.NumberCol;
