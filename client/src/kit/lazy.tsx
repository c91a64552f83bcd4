import { CircularProgress } from '@mui/material';
import { lazy, Suspense, type ComponentType } from 'react';

const fallback = <CircularProgress size={24} sx={{ m: 3 }} />;

/**
 * A page loaded on first use (its own chunk): `lazyPage(() => import('./sites'), (m) => m.SiteList)`.
 * The shell stays small; react-admin's forms and lists come with the first back-office page.
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): ComponentType {
  const Lazy = lazy(async () => ({ default: pick(await load()) }));
  return function LazyPage() {
    return (
      <Suspense fallback={fallback}>
        <Lazy />
      </Suspense>
    );
  };
}
