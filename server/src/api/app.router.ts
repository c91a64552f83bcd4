import { accountRoutes } from '../accounts/account.router';
import { channelRoutes } from '../alerts/channels/channels.router';
import { alarmRoutes } from '../alerts/alarms/alarms.router';
import { systemStatusRoutes } from '../control/status/status.router';
import { fleetRoutes } from '../fleet/fleet.router';
import { exportJobRoutes } from '../exports/exports.router';
import { authTokenRoutes } from '../tokens/auth-token.router';
import { resourceRoutes } from './resource-routers';
import { controllerCommandRoutes, controllerConfigRoutes } from '../control/commands/commands.router';
import { companyMembershipRoutes } from '../companies/company-membership.router';
import { domainRoutes } from '../branding/domain.router';
import { dashboardRoutes } from '../dashboards/dashboard.router';
import { hostedFileRoutes } from '../files/hosted-file.router';
import { roleRoutes } from '../users/role.router';
import { portalNotificationRoutes } from '../alerts/portal/portal-notification.router';
import { systemChangelogRoutes } from '../alerts/portal/system-changelog.router';
import { telemetryRoutes } from '../telemetry/telemetry.router';
import { userRoutes } from '../users/user.router';
import { router } from '../trpc/trpc';
import { buildRoutes, type ServiceClass } from '../trpc/routes';

/**
 * Every router module's declaration (its services and how it builds its procedures), once. The
 * app builds them with the services Nest made (TrpcService); the procedure-permission snapshot
 * with inert stand-ins. Add a declaration here and mount what it builds in buildAppRouter.
 */
export const ROUTES = {
  role: roleRoutes,
  user: userRoutes,
  companyMembership: companyMembershipRoutes,
  authToken: authTokenRoutes,
  portalNotification: portalNotificationRoutes,
  systemChangelog: systemChangelogRoutes,
  resources: resourceRoutes,
  domains: domainRoutes,
  dashboards: dashboardRoutes,
  telemetry: telemetryRoutes,
  hostedFile: hostedFileRoutes,
  channels: channelRoutes,
  alarms: alarmRoutes,
  controllerCommand: controllerCommandRoutes,
  controllerConfig: controllerConfigRoutes,
  systemStatus: systemStatusRoutes,
  fleet: fleetRoutes,
  exportJob: exportJobRoutes,
  account: accountRoutes,
} as const;

/** What each declaration of ROUTES builds. */
export type BuiltRoutes = { [K in keyof typeof ROUTES]: ReturnType<(typeof ROUTES)[K]['build']> };

/** Builds every declaration of ROUTES with each service from `provide`. */
export function buildAllRoutes(provide: <T>(type: ServiceClass<T>) => T): BuiltRoutes {
  const built = Object.fromEntries(Object.entries(ROUTES).map(([name, routes]) => [name, buildRoutes<unknown>(routes, provide)]));
  return built as BuiltRoutes;
}

/** The one tRPC router of the portal; procedure names are `<router>.<procedure>`. */
export function buildAppRouter(r: BuiltRoutes) {
  return router({
    role: r.role,
    user: r.user,
    companyMembership: r.companyMembership,
    authToken: r.authToken,
    portalNotification: r.portalNotification,
    systemChangelog: r.systemChangelog,
    telemetry: r.telemetry,
    hostedFile: r.hostedFile,
    rootDomain: r.domains.rootDomain,
    domain: r.domains.domain,
    dashboard: r.dashboards,
    emailChannel: r.channels.emailChannel,
    telegramChannel: r.channels.telegramChannel,
    discordChannel: r.channels.discordChannel,
    channelDetails: r.channels.channelDetails,
    channelLink: r.channels.channelLink,
    alarm: r.alarms.alarm,
    inbox: r.alarms.inbox,
    triggerStatus: r.alarms.triggerStatus,
    controllerCommand: r.controllerCommand,
    controllerConfig: r.controllerConfig,
    systemStatus: r.systemStatus.systemStatus,
    deviceMute: r.systemStatus.deviceMute,
    fleet: r.fleet,
    exportJob: r.exportJob,
    account: r.account,
    ...r.resources,
  });
}

/** Imported type-only by the browser client: no code generation. */
export type AppRouter = ReturnType<typeof buildAppRouter>;
