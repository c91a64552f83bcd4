import { Resource } from 'react-admin';
import { admin } from './admin';
import { alerts } from './alerts';
import { catalogue } from './catalogue';
import { fleet } from './fleet';
import type { ResourceGroup } from './kit/group';
import { organisation } from './organisation';

/**
 * The back office, grouped in the menu by who uses it: Organisation, Fleet, Alerts, Catalogue, Admin.
 * Each group folder (client/src/<group>/index.tsx) lists its resources; a resource name is
 * the tRPC router name (the dataProvider calls `system.getList` …).
 */
export const GROUPS: ResourceGroup[] = [organisation, fleet, alerts, catalogue, admin];

export const RESOURCES = GROUPS.flatMap((g) => g.resources.map((r) => <Resource key={r.name} {...r} />));

export const GROUP_ROUTES = GROUPS.flatMap((g) => g.routes ?? []);
