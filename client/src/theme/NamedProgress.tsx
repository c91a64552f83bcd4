import { ThemeProvider, type Theme } from '@mui/material';
import { type ReactNode, useCallback } from 'react';
import { useTranslate } from 'react-admin';

/**
 * Gives every progress indicator inside (react-admin's loading indicator in the app bar, the
 * pages' spinners) an accessible name in the user's language: "Loading…" / "Chargement…". A
 * spinner that names itself keeps its own name.
 */
export function NamedProgress({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  const label = translate('portal.app.loading');
  const withNames = useCallback(
    (outer: Theme): Theme => ({
      ...outer,
      components: {
        ...outer.components,
        MuiCircularProgress: {
          ...outer.components?.MuiCircularProgress,
          defaultProps: { ...outer.components?.MuiCircularProgress?.defaultProps, 'aria-label': label },
        },
        MuiLinearProgress: {
          ...outer.components?.MuiLinearProgress,
          defaultProps: { ...outer.components?.MuiLinearProgress?.defaultProps, 'aria-label': label },
        },
      },
    }),
    [label],
  );
  return <ThemeProvider theme={withNames}>{children}</ThemeProvider>;
}
