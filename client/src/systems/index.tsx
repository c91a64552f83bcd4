import SolarPowerIcon from '@mui/icons-material/SolarPower';
import { CircularProgress } from '@mui/material';
import { lazy, Suspense } from 'react';

// Both pages are their own chunks: the first shell page does not carry react-admin's list
// components, the system page nor uPlot (which the system page loads lazily in turn).
const LazySystemList = lazy(() => import('./SystemList'));
const LazySystemPage = lazy(() => import('./SystemPage'));

const fallback = <CircularProgress size={24} sx={{ m: 3 }} />;

export function SystemListRoute() {
  return (
    <Suspense fallback={fallback}>
      <LazySystemList />
    </Suspense>
  );
}

export function SystemPageRoute() {
  return (
    <Suspense fallback={fallback}>
      <LazySystemPage />
    </Suspense>
  );
}

/** <Resource name="system" {...systems} />: the list; a system's page is /systems/:id (a custom route). */
const systems = {
  list: SystemListRoute,
  icon: SolarPowerIcon,
  recordRepresentation: 'name',
  options: { label: 'portal.system.menu' },
};
export default systems;
