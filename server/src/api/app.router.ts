import { AccountRouter } from '../accounts/account.router';
import { ChannelRouters } from '../alerts/channels/channels.router';
import { AlarmsRouters } from '../alerts/alarms/alarms.router';
import { SystemStatusRouters } from '../control/status/status.router';
import { FleetRouter } from '../fleet/fleet.router';
import { ExportJobRouter } from '../exports/exports.router';
import { AuthTokenRouter } from '../tokens/auth-token.router';
import { ResourceRouters } from './resource-routers';
import { ControllerCommandRouter, ControllerConfigRouter } from '../control/commands/commands.router';
import { CompanyMembershipRouter } from '../companies/company-membership.router';
import { DomainRouter } from '../branding/domain.router';
import { DashboardRouter } from '../dashboards/dashboard.router';
import { HostedFileRouter } from '../files/hosted-file.router';
import { RoleRouter } from '../users/role.router';
import { PortalNotificationRouter } from '../notifications/portal-notification.router';
import { SystemChangelogRouter } from '../notifications/system-changelog.router';
import { TelemetryRouter } from '../telemetry/telemetry.router';
import { UserRouter } from '../users/user.router';
import { router } from '../trpc/trpc';

/**
 * Every class that contributes procedures, once, by the name the app router mounts it under. Nest
 * builds each (TrpcService looks them up by class); the procedure-permission snapshot builds them
 * without services. Add a router here and mount it in buildAppRouter.
 */
export const ROUTER_PROVIDERS = {
  role: RoleRouter,
  user: UserRouter,
  companyMembership: CompanyMembershipRouter,
  authToken: AuthTokenRouter,
  portalNotification: PortalNotificationRouter,
  systemChangelog: SystemChangelogRouter,
  resources: ResourceRouters,
  domains: DomainRouter,
  dashboards: DashboardRouter,
  telemetry: TelemetryRouter,
  hostedFile: HostedFileRouter,
  channels: ChannelRouters,
  alarms: AlarmsRouters,
  controllerCommand: ControllerCommandRouter,
  controllerConfig: ControllerConfigRouter,
  systemStatus: SystemStatusRouters,
  fleet: FleetRouter,
  exportJob: ExportJobRouter,
  account: AccountRouter,
} as const;

export type RouterProviders = { [K in keyof typeof ROUTER_PROVIDERS]: InstanceType<(typeof ROUTER_PROVIDERS)[K]> };

/** The one tRPC router of the portal; procedure names are `<router>.<procedure>`. */
export function buildAppRouter(r: RouterProviders) {
  return router({
    role: r.role.router,
    user: r.user.router,
    companyMembership: r.companyMembership.router,
    authToken: r.authToken.router,
    portalNotification: r.portalNotification.router,
    systemChangelog: r.systemChangelog.router,
    telemetry: r.telemetry.router,
    hostedFile: r.hostedFile.router,
    rootDomain: r.domains.rootDomain,
    domain: r.domains.domain,
    dashboard: r.dashboards.router,
    emailChannel: r.channels.emailChannel,
    telegramChannel: r.channels.telegramChannel,
    discordChannel: r.channels.discordChannel,
    channelDetails: r.channels.channelDetails,
    channelLink: r.channels.channelLink,
    alarm: r.alarms.alarm,
    inbox: r.alarms.inbox,
    triggerStatus: r.alarms.triggerStatus,
    controllerCommand: r.controllerCommand.router,
    controllerConfig: r.controllerConfig.router,
    systemStatus: r.systemStatus.systemStatus,
    deviceMute: r.systemStatus.deviceMute,
    fleet: r.fleet.router,
    exportJob: r.exportJob.router,
    account: r.account.router,
    ...r.resources.routers,
  });
}

/** Imported type-only by the browser client: no code generation. */
export type AppRouter = ReturnType<typeof buildAppRouter>;
