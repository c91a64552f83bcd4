import { defaultTheme, type RaThemeOptions } from 'react-admin';
import type { TBrand } from './brand';

/** Touch screens (a finger, not a mouse): what can be tapped is at least 44×44 px (WCAG 2.5.5). */
export const COARSE = '@media (pointer: coarse)';
/** A phone held upright: below MUI's `sm` breakpoint (600 px). */
export const PHONE = '@media (max-width: 599.95px)';
const TARGET = 44;

const target = { minHeight: TARGET, minWidth: TARGET };

/**
 * Phone and touch overrides on top of react-admin's components: on a coarse pointer buttons, icon
 * buttons, checkboxes, switches, list rows, sort headers, tabs, menu items and pagination are at
 * least 44 px; on a phone dialogs take the whole screen, lists and tabs scroll instead of the page
 * and the focus ring is always visible on what the keyboard reached.
 */
const touchComponents: RaThemeOptions['components'] = {
  MuiButton: { styleOverrides: { root: { [COARSE]: { minHeight: TARGET } } } },
  MuiIconButton: { styleOverrides: { root: { [COARSE]: target } } },
  MuiToggleButton: { styleOverrides: { root: { [COARSE]: target } } },
  MuiFab: { styleOverrides: { root: { [COARSE]: target } } },
  MuiCheckbox: {
    // A checkbox given an aria-label (react-admin's row and select-all checkboxes) names its <input>, not the
    // <span> around it: the input is what a screen reader reaches, and a span may not carry a name (axe).
    defaultProps: {
      slotProps: {
        root: (ownerState: Record<string, unknown>) => (ownerState['aria-label'] ? { 'aria-label': undefined } : {}),
        input: (ownerState: Record<string, unknown>) => {
          const given = (ownerState.inputProps ?? {}) as Record<string, unknown>;
          return ownerState['aria-label'] && !given['aria-label'] ? { ...given, 'aria-label': ownerState['aria-label'] } : given;
        },
      },
    } as object,
    styleOverrides: { root: { [COARSE]: { padding: 11 } } },
  },
  MuiRadio: { styleOverrides: { root: { [COARSE]: { padding: 11 } } } },
  MuiSwitch: {
    styleOverrides: {
      root: { [COARSE]: { height: 44, width: 64, padding: 15 } },
      switchBase: { [COARSE]: { padding: 12 } },
    },
  },
  MuiInputBase: { styleOverrides: { root: { [COARSE]: { minHeight: TARGET } } } },
  MuiListItemButton: { styleOverrides: { root: { [COARSE]: { minHeight: TARGET } } } },
  MuiMenuItem: { styleOverrides: { root: { [COARSE]: { minHeight: TARGET } } } },
  MuiTab: { styleOverrides: { root: { [COARSE]: { minHeight: 48, minWidth: TARGET } } } },
  MuiTabs: {
    defaultProps: { variant: 'scrollable', scrollButtons: 'auto', allowScrollButtonsMobile: true },
    styleOverrides: { scrollButtons: { [COARSE]: { minWidth: TARGET } } },
  },
  MuiTableSortLabel: { styleOverrides: { root: { [COARSE]: { minHeight: TARGET } } } },
  MuiTablePagination: {
    styleOverrides: {
      root: { maxWidth: '100%', overflowX: 'auto' },
      select: { [COARSE]: { minHeight: TARGET, display: 'flex', alignItems: 'center' } },
      toolbar: { [PHONE]: { flexWrap: 'wrap', paddingLeft: 8, paddingRight: 8 } },
    },
  },
  MuiChip: { styleOverrides: { clickable: { [COARSE]: { minHeight: TARGET } } } },
  MuiDialog: {
    styleOverrides: {
      paper: { [PHONE]: { margin: 0, width: '100%', maxWidth: '100%', height: '100%', maxHeight: 'none', borderRadius: 0 } },
    },
  },
  MuiTableContainer: { styleOverrides: { root: { maxWidth: '100%', overflowX: 'auto' } } },
  // The page's content is a flex item: without min-width 0 a wide child (a chart, a row of buttons) widens the page.
  // The layout is never wider than the window either (react-admin makes it fit its content): a list with many
  // columns (systems, triggers) at 1280 px pushed Create and Export off screen. The table scrolls instead.
  RaLayout: { styleOverrides: { root: { minWidth: 0, '& .RaLayout-content': { minWidth: 0 } } } },
  RaList: { styleOverrides: { root: { '& .RaList-main': { minWidth: 0 } } } },
  RaDataTable: { styleOverrides: { root: { '& .RaDataTable-tableWrapper': { overflowX: 'auto' } } } },
  MuiToggleButtonGroup: { styleOverrides: { root: { flexWrap: 'wrap' } } },
  // The form toolbar's grey made the red Delete 3.9:1; this one keeps it above 4.5:1.
  RaToolbar: { styleOverrides: { root: { backgroundColor: '#f5f5f5' } } },
  MuiCssBaseline: {
    styleOverrides: {
      // A visible ring on whatever the keyboard reached (MUI's ripple alone is faint on some controls).
      // A control whose <input> is invisible (checkbox, radio, switch) shows the ring on itself (.Mui-focusVisible).
      'html *:focus-visible, html .Mui-focusVisible': { outline: '2px solid #1565c0', outlineOffset: 2 },
      // A text field's ring goes round the whole field, not its bare text line.
      'html .MuiInputBase-root.Mui-focused': { outline: '2px solid #1565c0', outlineOffset: 2 },
      'html .MuiInputBase-input:focus-visible': { outline: 'none' },
    },
  },
};

/** react-admin's light theme in the brand's colours (spec §2: brand assets per domain). */
export function brandTheme(brand: TBrand): RaThemeOptions {
  const components = { ...(defaultTheme.components ?? {}) } as Record<string, unknown>;
  for (const [name, override] of Object.entries(touchComponents ?? {})) {
    const base = (components[name] ?? {}) as { defaultProps?: object; styleOverrides?: Record<string, unknown> };
    const add = override as { defaultProps?: object; styleOverrides?: Record<string, unknown> };
    components[name] = {
      ...base,
      ...add,
      defaultProps: { ...(base.defaultProps ?? {}), ...(add.defaultProps ?? {}) },
      styleOverrides: { ...(base.styleOverrides ?? {}), ...(add.styleOverrides ?? {}) },
    };
  }
  return {
    ...defaultTheme,
    palette: {
      ...defaultTheme.palette,
      mode: 'light',
      primary: { main: brand.colors.primary },
      secondary: { main: brand.colors.secondary },
    },
    components: components,
  };
}
