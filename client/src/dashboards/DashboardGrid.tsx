import DeleteIcon from '@mui/icons-material/Delete';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import TuneIcon from '@mui/icons-material/Tune';
import { Box, Card, IconButton, Typography } from '@mui/material';
import { memo } from 'react';
import ReactGridLayout, { type Layout, useContainerWidth } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import { useTranslate } from 'react-admin';
import { GRID_COLUMNS, type TWidget } from '../../../shared/dashboards/dashboard-layout.schema';
import type { DateRange } from './range';
import { WidgetBody } from './Widgets';

/** Below this width the widgets stack in one column (a phone), without drag or resize. */
export const ONE_COLUMN_BELOW_PX = 600;
const ROW_HEIGHT = 48;

export interface DashboardGridProps {
  widgets: readonly TWidget[];
  range: DateRange;
  editing: boolean;
  /** Positions after a drag or a resize (editing only). */
  onLayout?: (layout: readonly { i: string; x: number; y: number; w: number; h: number }[]) => void;
  onRemove?: (id: string) => void;
  onSettings?: (id: string) => void;
}

/** The label of a widget: its title, or its type's name. */
export function useWidgetTitle(): (w: TWidget) => string {
  const translate = useTranslate();
  return (w) => w.title || translate(`portal.dashboards.types.${w.type}`);
}

/**
 * The dashboard's widgets on a 12-column grid (react-grid-layout, loaded with this chunk only);
 * drag by the title bar and resize from the corner while editing; one column on a phone.
 */
export default function DashboardGrid(props: DashboardGridProps) {
  const { width, containerRef, mounted } = useContainerWidth();
  const phone = mounted && width < ONE_COLUMN_BELOW_PX;
  const ordered = [...props.widgets].sort((a, b) => a.y - b.y || a.x - b.x);
  return (
    <div ref={containerRef} data-testid="dashboard-grid" data-editing={props.editing ? 'true' : 'false'} data-layout={phone ? 'one-column' : 'grid'}>
      {mounted && phone && (
        <Box sx={{ display: 'grid', gap: 1.5 }}>
          {ordered.map((w) => (
            <Box key={w.id} sx={{ minHeight: Math.max(2, w.h) * ROW_HEIGHT }}>
              <WidgetFrame widget={w} range={props.range} editing={false} />
            </Box>
          ))}
        </Box>
      )}
      {mounted && !phone && (
        <ReactGridLayout
          width={width}
          layout={ordered.map((w) => ({
            i: w.id,
            x: w.x,
            y: w.y,
            w: w.w,
            h: w.h,
            maxH: 24,
            static: !props.editing,
            isDraggable: props.editing,
            isResizable: props.editing,
          }))}
          gridConfig={{ cols: GRID_COLUMNS, rowHeight: ROW_HEIGHT, margin: [12, 12] }}
          dragConfig={{ enabled: props.editing, handle: '.widget-drag-handle', cancel: '.widget-no-drag' }}
          resizeConfig={{ enabled: props.editing }}
          onLayoutChange={(layout: Layout) => props.editing && props.onLayout?.(layout.map(({ i, x, y, w, h }) => ({ i, x, y, w, h })))}
        >
          {ordered.map((w) => (
            <div key={w.id}>
              <WidgetFrame widget={w} range={props.range} editing={props.editing} onRemove={props.onRemove} onSettings={props.onSettings} />
            </div>
          ))}
        </ReactGridLayout>
      )}
    </div>
  );
}

const WidgetFrame = memo(function WidgetFrame({
  widget,
  range,
  editing,
  onRemove,
  onSettings,
}: {
  widget: TWidget;
  range: DateRange;
  editing: boolean;
  onRemove?: (id: string) => void;
  onSettings?: (id: string) => void;
}) {
  const translate = useTranslate();
  const title = useWidgetTitle()(widget);
  return (
    <Card
      variant="outlined"
      component="section"
      aria-label={title}
      data-testid="dashboard-widget"
      data-widget={widget.id}
      data-type={widget.type}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
    >
      <Box
        className={editing ? 'widget-drag-handle' : undefined}
        data-testid={editing ? 'widget-drag-handle' : undefined}
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 0.5,
          px: 1.5,
          py: 0.5,
          borderBottom: 1,
          borderColor: 'divider',
          cursor: editing ? 'move' : 'default',
        }}
      >
        {editing && <DragIndicatorIcon fontSize="small" color="action" />}
        <Typography variant="subtitle2" component="h2" sx={{ flex: 1 }} noWrap>
          {title}
        </Typography>
        {editing && (
          <Box className="widget-no-drag" sx={{ display: 'flex' }}>
            <IconButton size="small" aria-label={translate('portal.dashboards.settings_widget', { title })} onClick={() => onSettings?.(widget.id)}>
              <TuneIcon fontSize="small" />
            </IconButton>
            <IconButton size="small" aria-label={translate('portal.dashboards.remove_widget', { title })} onClick={() => onRemove?.(widget.id)}>
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Box>
        )}
      </Box>
      <Box sx={{ flex: 1, minHeight: 0, overflow: 'auto', p: 1.5 }}>
        <WidgetBody widget={widget} range={range} />
      </Box>
    </Card>
  );
});
