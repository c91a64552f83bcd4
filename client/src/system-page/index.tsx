import { CircularProgress } from '@mui/material';
import { lazy, Suspense } from 'react';
import { setSystemPageLoader } from '../systems/prefetch';

// The page is its own chunk: the first shell page does not carry it nor uPlot (which the page loads
// lazily in turn). The systems' links prefetch this same chunk.
const loadSystemPage = () => import('./SystemPage');
setSystemPageLoader(loadSystemPage);
const LazySystemPage = lazy(loadSystemPage);

const fallback = <CircularProgress size={24} sx={{ m: 3 }} />;

/** A system's page, /systems/:id (a custom route beside the system resource). */
export function SystemPageRoute() {
  return (
    <Suspense fallback={fallback}>
      <LazySystemPage />
    </Suspense>
  );
}
