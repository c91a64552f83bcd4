import { isPermission } from '../auth/policy';
import { buildAppRouter, type RouterProviders } from './app.router';
import { AuthTokenRouter } from '../auth/auth-token.router';
import { CompanyMembershipRouter } from '../companies/company-membership.router';
import { RoleRouter } from '../users/role.router';
import { PortalNotificationRouter } from '../notifications/portal-notification.router';
import { SystemChangelogRouter } from '../systems/system-changelog.router';
import { UserRouter } from '../users/user.router';
import { ResourceRouters } from '../crud/resource-routers';
import { DomainRouter } from '../branding/domain.router';
import { DashboardRouter } from '../dashboards/dashboard.router';
import { TelemetryRouter } from '../telemetry/telemetry.router';
import { HostedFileRouter } from '../files/hosted-file.router';

/** Every procedure of the app router with the permission it declares. */
export function procedurePermissions(): Record<string, string> {
  const none = {} as never;
  const providers: RouterProviders = {
    role: new RoleRouter(none),
    user: new UserRouter(none, none, none),
    companyMembership: new CompanyMembershipRouter(none),
    authToken: new AuthTokenRouter(none),
    portalNotification: new PortalNotificationRouter(none, none, none),
    systemChangelog: new SystemChangelogRouter(none),
    resources: new ResourceRouters(none),
    domains: new DomainRouter(none, none, none),
    dashboards: new DashboardRouter(none, none),
    telemetry: new TelemetryRouter(none),
    hostedFile: new HostedFileRouter(none),
  };
  const appRouter = buildAppRouter(providers);
  type Node = { _def?: { type?: string; meta?: { perm?: string; public?: boolean } } } & Record<string, unknown>;
  const out: [string, string][] = [];
  const walk = (record: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(record)) {
      const node = value as Node;
      const path = prefix ? `${prefix}.${key}` : key;
      if (node?._def?.type && ['query', 'mutation', 'subscription'].includes(node._def.type)) {
        out.push([path, node._def.meta?.public ? 'public' : (node._def.meta?.perm ?? 'NONE')]);
      } else if (node && typeof node === 'object') {
        walk(node as Record<string, unknown>, path);
      }
    }
  };
  walk(appRouter._def.procedures as unknown as Record<string, unknown>, '');
  return Object.fromEntries(out.sort(([a], [b]) => a.localeCompare(b)));
}

describe('procedure → permission map', () => {
  it('every procedure declares a known permission (or is explicitly public)', () => {
    const map = procedurePermissions();
    expect(Object.keys(map).length).toBeGreaterThan(0);
    for (const [path, perm] of Object.entries(map)) {
      expect({ path, known: perm === 'public' || isPermission(perm) }).toEqual({ path, known: true });
    }
  });

  it('matches the reviewed snapshot (a permission change shows up as a diff)', () => {
    expect(procedurePermissions()).toMatchSnapshot();
  });
});
