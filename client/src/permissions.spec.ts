import { can, POLICY } from '../../shared/access/policy';
import { actorOf, canAccessWith, permissionFor, RESOURCE_PERMISSIONS } from './permissions';
import type { TSessionContext } from './session/auth-api';

const membership = (level: number, is_company_admin = false) => ({
  membership_cuid: `m${level}`,
  role_cuid: `r${level}`,
  user_cuid: 'u1',
  company_cuid: 'c1',
  is_company_admin,
  company: { company_cuid: 'c1', name: 'Demo Solar Ltd', url: null, logo: null },
  user: { user_cuid: 'u1', email: 'a@b.c', name: 'A', phone: null, inactive: false, meta: {} },
  role: { role_cuid: `r${level}`, name: `L${level}`, level, description: null },
});
const ctx = (level: number, admin = false): TSessionContext => ({
  user: { user_cuid: 'u1', email: 'a@b.c', name: 'A', inactive: false, meta: {} },
  memberships: [membership(level, admin)],
  notificationBlacklist: [],
  portalNotificationBlacklist: [],
  isSuperUser: level === 0,
});

describe('canAccess mapping (react-admin resource/action → policy.ts)', () => {
  it('names only permissions the policy knows', () => {
    for (const [resource, actions] of Object.entries(RESOURCE_PERMISSIONS)) {
      for (const permission of Object.values(actions)) expect([resource, !!permission && permission in POLICY]).toEqual([resource, true]);
    }
  });

  it('a resource or action named after an Object.prototype member (constructor, toString …) is unknown and refused', () => {
    const inherited = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];
    for (const name of inherited) {
      for (const [resource, action] of [
        [name, 'list'],
        [name, 'name'],
        [Object.keys(RESOURCE_PERMISSIONS)[0], name],
        [`${name}.field`, 'show'],
      ]) {
        expect([resource, action, permissionFor(resource, action)]).toEqual([resource, action, undefined]);
      }
    }
  });

  it('maps actions, aliases and field-level questions, and refuses what it does not know', () => {
    expect(permissionFor('system', 'list')).toBe('systems.view');
    expect(permissionFor('system', 'export')).toBe('systems.view');
    expect(permissionFor('system.name', 'read')).toBe('systems.view');
    expect(permissionFor('system', 'clone')).toBe('systems.create');
    expect(permissionFor('role', 'delete')).toBeUndefined();
    expect(permissionFor('nonsense', 'list')).toBeUndefined();
  });

  it('answers like the server would: levels and company admin', () => {
    const ask = (c: TSessionContext, resource: string, action: string) => {
      const p = permissionFor(resource, action);
      return !!p && can(actorOf(c), p);
    };
    expect(ask(ctx(3), 'system', 'list')).toBe(true);
    expect(ask(ctx(3), 'system', 'edit')).toBe(false);
    expect(ask(ctx(1), 'system', 'edit')).toBe(true);
    expect(ask(ctx(2), 'controllerType', 'create')).toBe(false);
    expect(ask(ctx(0), 'controllerType', 'create')).toBe(true);
    expect(ask(ctx(3), 'user', 'list')).toBe(false);
    expect(ask(ctx(3, true), 'user', 'list')).toBe(true);
  });

  it('levels count in their own company: with a record, the level held in the record’s company decides, like the server', () => {
    const two: TSessionContext = { ...ctx(3), memberships: [membership(3), { ...membership(2), company_cuid: 'c2', membership_cuid: 'm2' }] };
    const actor = actorOf(two);
    const ask = (resource: string, action: string, record?: unknown) => canAccessWith(actor, permissionFor(resource, action)!, record);
    // Basic in c1, Expert in c2: the controller menu shows (c2), a controller of c1 does not
    expect(ask('controller', 'list')).toBe(true);
    expect(ask('controller', 'show', { id: 'x', company_cuid: 'c1' })).toBe(false);
    expect(ask('controller', 'show', { id: 'y', company_cuid: 'c2' })).toBe(true);
    expect(ask('site', 'show', { id: 's', company_cuid: 'c1' })).toBe(false);
    expect(ask('system', 'show', { id: 't', company_cuid: 'c1' })).toBe(true);
    // a superuser always passes
    expect(canAccessWith(actorOf(ctx(0)), 'controllers.view', { company_cuid: 'elsewhere' })).toBe(true);
  });
});
