import { QueryClient } from '@tanstack/react-query';
import type { TLiveEvent, TToast } from '../../../server/src/alerts/portal/portal.schema';
import { commandQueries, controllerConfigKey, invalidate, staleQueriesOf, unwrapLiveEvent } from './live-events';

const toast = (patch: Partial<TToast> = {}): TToast => ({
  id: 'cmd-1',
  type: 'ACTION_RESPONSE',
  actionResponse: 'SUCCESS',
  title: 'Reboot done',
  message: 'ok',
  severity: 'INFO',
  triggeredAt: { timestamp: new Date('2026-11-21T10:00:00Z'), timezone: 'Africa/Nairobi' },
  onClickTarget: '/controller/c1/show/commands',
  command: { command_id: 'cmd-1', controller_id: 'c1', status: 'SUCCESS' },
  ...patch,
});
const event = (patch: Partial<TToast> = {}): TLiveEvent => ({ kind: 'toast', toast: toast(patch) });

/** react-admin's key of a controller's command list (useGetList: [resource, 'getList', params]). */
const commandList = (controller_id: string) => [
  'controllerCommand',
  'getList',
  { pagination: { page: 1, perPage: 50 }, sort: { field: 'requested_at', order: 'DESC' }, filter: { controller_id }, meta: undefined },
];

describe('live events: data that changed is invalidated through the query client', () => {
  let client: QueryClient;
  const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;

  beforeEach(() => {
    client = new QueryClient();
    for (const key of [commandList('c1'), commandList('c2'), controllerConfigKey('c1'), controllerConfigKey('c2'), ['systemStatus', 's1']]) {
      client.setQueryData(key, { data: [] });
    }
  });
  afterEach(() => client.clear());

  it("a command's new status makes its controller's command lists and configuration stale, nothing else", async () => {
    await invalidate(client, staleQueriesOf(event()));
    expect(stale(commandList('c1'))).toBe(true);
    expect(stale(controllerConfigKey('c1'))).toBe(true);
    expect(stale(commandList('c2'))).toBe(false);
    expect(stale(controllerConfigKey('c2'))).toBe(false);
    expect(stale(['systemStatus', 's1'])).toBe(false);
  });

  it('each status of a command does it again (PENDING, then the answer)', async () => {
    await invalidate(client, staleQueriesOf(event({ actionResponse: 'PENDING', command: { command_id: 'cmd-1', controller_id: 'c1', status: 'SENT' } })));
    expect(stale(commandList('c1'))).toBe(true);
    client.setQueryData(commandList('c1'), { data: [{ id: 'cmd-1' }] });
    expect(stale(commandList('c1'))).toBe(false);
    await invalidate(client, staleQueriesOf(event()));
    expect(stale(commandList('c1'))).toBe(true);
  });

  it('a toast that is not about a command changes no data', async () => {
    const notification = event({
      type: 'NOTIFICATION',
      command: undefined,
      source: { notification_cuid: 'n1', system_cuid: 's1', notification_type: 'CHANGELOG' },
    });
    expect(staleQueriesOf(notification)).toEqual([]);
    await invalidate(client, staleQueriesOf(notification));
    expect(stale(commandList('c1'))).toBe(false);
    expect(stale(controllerConfigKey('c1'))).toBe(false);
  });

  it('a command sent from this page invalidates the same queries as its live event', () => {
    expect(staleQueriesOf(event()).map((f) => f.queryKey)).toEqual(commandQueries('c1').map((f) => f.queryKey));
  });

  it('reads tracked events ({ id, data }) and plain ones', () => {
    const plain = event();
    expect(unwrapLiveEvent({ id: '42', data: plain })).toBe(plain);
    expect(unwrapLiveEvent(plain)).toBe(plain);
    expect(unwrapLiveEvent({ kind: 'other' })).toBeUndefined();
    expect(unwrapLiveEvent(null)).toBeUndefined();
  });
});
