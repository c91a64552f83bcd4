import { lazy, Suspense } from 'react';
import { CircularProgress } from '@mui/material';
import type { SiteMapProps } from './types';

export type { MapPin, SiteMapProps } from './types';

// The map library and the country borders come in their own chunk, only on pages that show a map.
const LazyMap = lazy(() => import('./SiteMap'));

/** Sites as pins coloured by their worst system state; see ./SiteMap for the map itself. */
export function SiteMap(props: SiteMapProps) {
  return (
    <Suspense fallback={<CircularProgress size={24} sx={{ m: 3 }} />}>
      <LazyMap {...props} />
    </Suspense>
  );
}
