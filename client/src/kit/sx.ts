import type { SxProps, Theme } from '@mui/material';

type SxList = Extract<SxProps<Theme>, ReadonlyArray<unknown>>;
const isSxList = (sx: SxProps<Theme>): sx is SxList => Array.isArray(sx);

/** A caller's `sx` as items to spread into an sx list after a component's own style: a list as it is, one style as one item, none as none. */
export const sxItems = (sx: SxProps<Theme> | undefined): SxList => (sx === undefined ? [] : isSxList(sx) ? sx : [sx]);
