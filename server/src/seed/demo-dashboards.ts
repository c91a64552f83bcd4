import type { EntityManager } from 'typeorm';
import { newCuid } from '../common/ids';
import type { JsonObject } from '../../../shared/common/enums';
import { type TDashboardLayout, ZDashboardLayout } from '../../../shared/dashboards/dashboard-layout.schema';
import { DashboardEntity } from '../dashboards/dashboard.entity';

type Widget = TDashboardLayout['widgets'][number];
type Place = Pick<Widget, 'x' | 'y' | 'w' | 'h'>;

const at = (x: number, y: number, w: number, h: number): Place => ({ x, y, w, h });

/**
 * The demo's default dashboards (issue 13 §2): one per role level for the demo company, each
 * adding to the one below (Basic: energy and systems; Expert: + status and alarms; Installer: +
 * the battery and the alarms of the farm; Superuser: the whole fleet and the map), and one for the
 * demo farm. Every layout is checked against the schema the API uses.
 */
export async function seedDemoDashboards(
  m: EntityManager,
  demo: { company_cuid: string; farm_cuid: string; battery_cuid: string; pv_cuid: string; roleCuid: (level: number) => string },
): Promise<void> {
  const energy: Widget[] = [
    { id: 'energy-today', type: 'kpi', ...at(0, 0, 3, 2), settings: { metric: 'energy_today' } },
    { id: 'energy-month', type: 'kpi', ...at(3, 0, 3, 2), settings: { metric: 'energy_month' } },
    { id: 'systems', type: 'kpi', ...at(6, 0, 3, 2), settings: { metric: 'systems_total' } },
    { id: 'online', type: 'kpi', ...at(9, 0, 3, 2), settings: { metric: 'systems_online' } },
    { id: 'bars', type: 'energy', ...at(0, 2, 12, 5), settings: { granularity: 'day' } },
  ];
  const status: Widget[] = [
    { id: 'status', type: 'fleet_status', ...at(0, 7, 6, 4), settings: {} },
    { id: 'alarms', type: 'alarms', ...at(6, 7, 6, 4), settings: {} },
  ];
  const installer: Widget[] = [
    {
      id: 'battery',
      type: 'timeseries',
      title: 'Battery',
      ...at(0, 11, 8, 6),
      settings: { system_cuid: demo.farm_cuid, series: [{ entity_cuid: demo.battery_cuid, parameter_id: 'battery_soc' }] },
    },
    { id: 'battery-now', type: 'latest', title: 'Battery now', ...at(8, 11, 4, 6), settings: { system_cuid: demo.farm_cuid, entity_cuid: demo.battery_cuid } },
  ];
  const fleet: Widget[] = [
    { id: 'in-alarm', type: 'kpi', ...at(0, 0, 3, 2), settings: { metric: 'in_alarm' } },
    { id: 'offline', type: 'kpi', ...at(3, 0, 3, 2), settings: { metric: 'systems_offline' } },
    { id: 'energy-today', type: 'kpi', ...at(6, 0, 3, 2), settings: { metric: 'energy_today' } },
    { id: 'energy-month', type: 'kpi', ...at(9, 0, 3, 2), settings: { metric: 'energy_month' } },
    { id: 'map', type: 'map', ...at(0, 2, 7, 8), settings: {} },
    { id: 'status', type: 'fleet_status', ...at(7, 2, 5, 4), settings: {} },
    { id: 'alarms', type: 'alarms', ...at(7, 6, 5, 4), settings: {} },
    { id: 'bars', type: 'energy', ...at(0, 10, 12, 5), settings: { granularity: 'month' } },
  ];
  const farm: Widget[] = [
    { id: 'note', type: 'markdown', ...at(0, 0, 12, 2), settings: { text: '**Demo Farm Mini-grid**: PV, battery bank and a backup genset.' } },
    {
      id: 'pv',
      type: 'timeseries',
      title: 'PV and battery',
      ...at(0, 2, 8, 6),
      settings: {
        system_cuid: demo.farm_cuid,
        series: [
          { entity_cuid: demo.pv_cuid, parameter_id: 'pv_power' },
          { entity_cuid: demo.battery_cuid, parameter_id: 'battery_soc' },
        ],
      },
    },
    {
      id: 'soc',
      type: 'kpi',
      title: 'Battery',
      ...at(8, 2, 4, 3),
      settings: { metric: 'parameter', system_cuid: demo.farm_cuid, entity_cuid: demo.battery_cuid, parameter_id: 'battery_soc' },
    },
    { id: 'battery-now', type: 'latest', ...at(8, 5, 4, 3), settings: { system_cuid: demo.farm_cuid, entity_cuid: demo.battery_cuid } },
    { id: 'bars', type: 'energy', ...at(0, 8, 12, 5), settings: { system_cuid: demo.farm_cuid, granularity: 'day' } },
  ];
  const board = (owner: string, name: string, level: number | null, widgets: Widget[], preset: TDashboardLayout['range']['preset'] = 'last_7d') => ({
    dashboard_cuid: newCuid(),
    entityowner_cuid: owner,
    name,
    role_cuid: level === null ? null : demo.roleCuid(level),
    meta: ZDashboardLayout.parse({ range: { preset }, widgets }) as unknown as JsonObject,
  });
  await m.insert(DashboardEntity, [
    board(demo.company_cuid, 'My energy', 3, energy, 'this_month'),
    board(demo.company_cuid, 'Energy and status', 2, [...energy, ...status]),
    board(demo.company_cuid, 'Installer view', 1, [...energy, ...status, ...installer]),
    board(demo.company_cuid, 'Whole fleet', 0, fleet, 'this_month'),
    board(demo.farm_cuid, 'Farm at a glance', null, farm, 'last_24h'),
  ]);
}
