import { Route } from 'react-router';
import { lazyPage } from '../kit/lazy';

// The dashboards come in their own chunk (the grid library in another, with the first grid).
const DashboardList = lazyPage(
  () => import('./DashboardList'),
  (m) => m.default,
);
const DashboardPage = lazyPage(
  () => import('./DashboardPage'),
  (m) => m.default,
);

/** /dashboards (the list) and /dashboards/:id (one dashboard). */
export const DASHBOARD_ROUTES = [
  <Route key="dashboards" path="/dashboards" element={<DashboardList />} />,
  <Route key="dashboard" path="/dashboards/:id" element={<DashboardPage />} />,
];
