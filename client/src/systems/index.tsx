import SolarPowerIcon from '@mui/icons-material/SolarPower';
import { CircularProgress } from '@mui/material';
import { lazy, Suspense } from 'react';

// The list is its own chunk: the first shell page does not carry react-admin's list components
// (a system's page is system-page/, its own chunk too).
const LazySystemList = lazy(() => import('./SystemList'));

const fallback = <CircularProgress size={24} sx={{ m: 3 }} />;

export function SystemListRoute() {
  return (
    <Suspense fallback={fallback}>
      <LazySystemList />
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
