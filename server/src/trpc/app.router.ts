import type { AuthTokenRouter } from '../auth/auth-token.router';
import type { ResourceRouters } from '../crud/resource-routers';
import type { CompanyMembershipRouter } from '../companies/company-membership.router';
import type { DomainRouter } from '../branding/domain.router';
import type { DashboardRouter } from '../dashboards/dashboard.router';
import type { HostedFileRouter } from '../files/hosted-file.router';
import type { RoleRouter } from '../users/role.router';
import type { PortalNotificationRouter } from '../notifications/portal-notification.router';
import type { SystemChangelogRouter } from '../systems/system-changelog.router';
import type { TelemetryRouter } from '../telemetry/telemetry.router';
import type { UserRouter } from '../users/user.router';
import { router } from './trpc';

export interface RouterProviders {
  role: RoleRouter;
  user: UserRouter;
  companyMembership: CompanyMembershipRouter;
  authToken: AuthTokenRouter;
  portalNotification: PortalNotificationRouter;
  systemChangelog: SystemChangelogRouter;
  resources: ResourceRouters;
  domains: DomainRouter;
  dashboards: DashboardRouter;
  telemetry: TelemetryRouter;
  hostedFile: HostedFileRouter;
}

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
    ...r.resources.routers,
  });
}

/** Imported type-only by the browser client: no code generation. */
export type AppRouter = ReturnType<typeof buildAppRouter>;
