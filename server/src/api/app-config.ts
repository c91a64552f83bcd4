import { ACCOUNTS_SETTINGS } from '../accounts/accounts.config';
import { ALERTS_SETTINGS } from '../alerts/alerts.config';
import { AUTH_SETTINGS } from '../auth/auth.config';
import { BRANDING_SETTINGS } from '../branding/branding.config';
import { BUDGETS_SETTINGS } from '../budgets/budgets.config';
import { type AppConfig, composeConfig, type SettingsSection } from '../config/config';
import { SERVER_SETTINGS } from '../config/server.config';
import { CONTROL_SETTINGS } from '../control/control.config';
import { DATABASE_SETTINGS } from '../database/database.config';
import { EXPORTS_SETTINGS } from '../exports/exports.config';
import { FILES_SETTINGS } from '../files/files.config';
import { FLEET_SETTINGS } from '../fleet/fleet.config';
import { HEALTH_SETTINGS } from '../health/health.config';
import { LIVE_EVENTS_SETTINGS } from '../alerts/portal/live-events.config';
import { SYSTEMS_SETTINGS } from '../systems/systems.config';
import { TELEMETRY_SETTINGS_SECTION } from '../telemetry/telemetry.config';
import { TRPC_SETTINGS } from '../trpc/trpc.config';

/**
 * The settings of every domain, composed into the one AppConfig: each domain declares and validates
 * its own (`<domain>/<domain>.config.ts`); this list only puts them together, above every domain.
 * Telemetry, ingest, MQTT and the simulator parse theirs with their own schema
 * (telemetry/telemetry.config.ts), checked here with all the others.
 */
export const APP_SETTINGS: readonly SettingsSection[] = [
  SERVER_SETTINGS,
  HEALTH_SETTINGS,
  AUTH_SETTINGS,
  DATABASE_SETTINGS,
  TRPC_SETTINGS,
  BUDGETS_SETTINGS,
  SYSTEMS_SETTINGS,
  BRANDING_SETTINGS,
  FILES_SETTINGS,
  LIVE_EVENTS_SETTINGS,
  ALERTS_SETTINGS,
  CONTROL_SETTINGS,
  FLEET_SETTINGS,
  EXPORTS_SETTINGS,
  ACCOUNTS_SETTINGS,
  TELEMETRY_SETTINGS_SECTION,
];

/** Reads and validates the settings; throws a ConfigError listing every problem of every domain. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return composeConfig(APP_SETTINGS, env);
}
