import type { EventEmitter } from 'node:events';
import type { BrowserContext, Page } from 'playwright-core';
import { SEVERITY_COLOURS } from '../../shared/common/spec-constants';
import { LiveEventsService } from '../../server/src/alerts/portal/live-events.service';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { loadFleet } from '../../server/src/simulator/fleet';
import { Simulator } from '../../server/src/simulator/simulator';
import { HttpTransport } from '../../server/src/simulator/transports';
import type { HttpClient } from '../factories/http-client';
import { type BrowserPortal, eventually, signIn, startBrowserPortal } from './support/portal';

const rgb = (hex: string) => {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

const TRIGGER_NAME = 'E2E battery not full';
const MESSAGE = 'Battery of {system} at {value} {unit} (alarm below {threshold} {unit}) on {device}';

/**
 * Issue 11 end to end, with nothing written by hand into an alert table: the built app on the test
 * database (live events over PostgreSQL's LISTEN/NOTIFY, as deployed), a threshold trigger made through the API (as the demo installer), the simulator
 * (PlantModel, over HTTP ingest) sending the demo controller's live samples, the engine firing on
 * the first value, the outbox writing the Notification and publishing the toast, and the screens.
 *
 * Two demo company members in their own browser contexts (Basic clicks the toast through to the
 * system's Alarms tab and the fleet's active alarms; Expert acknowledges from the toast) and a
 * member of the other company (a third context), signed in and listening, who gets nothing.
 */
describe('an alarm from the simulator to the browser, end to end', () => {
  let portal: BrowserPortal;
  let sim: Simulator | undefined;
  let running: Promise<void> | undefined;
  let transport: HttpTransport | undefined;
  const contexts: BrowserContext[] = [];
  let basic: Page;
  let expert: Page;
  let other: Page;
  let farm: { system_cuid: string; name: string };
  let battery: string;
  let trigger: string;
  let users: { basic: string; expert: string; other: string };
  /** The alarm as the engine and outbox wrote it (read, never written, by the test). */
  let notification: string;
  let firstValue: { timestamp: number; value: number };
  let expected: string;

  const sql = <T>(query: string, params: unknown[] = []) => portal.app.db.dataSource.query<T[]>(query, params);
  const toastOf = (page: Page) => page.locator(`[data-testid=toast][data-type=NOTIFICATION][data-trigger="${trigger}"]`);
  const row = (page: Page) => page.locator(`[data-testid=active-alarm][data-trigger="${trigger}"]`);

  /** Whether the server holds an open live stream of this user (a toast is published once: the browsers must listen first). */
  const listening = (user_cuid: string) =>
    (portal.app.app.get<LiveEventsService>(LiveEventsService) as unknown as { emitter: EventEmitter }).emitter.listenerCount(`user:${user_cuid}`) > 0;

  const openAs = async (email: string, host: 'localhost' | '127.0.0.1' = 'localhost') => {
    const { context, page } = await portal.newPage();
    contexts.push(context);
    await signIn(page, portal.url('/auth/login', host), email);
    return page;
  };

  beforeAll(async () => {
    // Live events and the outbox's wake-ups through LISTEN/NOTIFY on PostgreSQL, as a deployment has them.
    portal = await startBrowserPortal({}, { liveOverPostgres: true });
    const system_cuid = await portal.systemCuid('DSL-0001');
    [farm] = await sql<{ system_cuid: string; name: string }>(`SELECT system_cuid, name FROM system WHERE system_cuid = $1`, [system_cuid]);
    [{ entity_cuid: battery }] = await sql<{ entity_cuid: string }>(`SELECT entity_cuid FROM entity WHERE system_cuid = $1 AND name = 'Battery bank'`, [
      system_cuid,
    ]);
    users = {
      basic: await portal.userCuid('basic@demo.local'),
      expert: await portal.userCuid('expert@demo.local'),
      other: await portal.userCuid('other@demo.local'),
    };
    // Nothing of the alerts is in the demo data of tests (seedDemo without alerts).
    expect(await sql(`SELECT 1 FROM notification_trigger`)).toEqual([]);
    expect(await sql(`SELECT 1 FROM notification`)).toEqual([]);
  });

  afterAll(async () => {
    await sim?.stop();
    await running?.catch(() => undefined);
    await transport?.close();
    for (const c of contexts) await c.close().catch(() => undefined);
    await portal?.close();
  });

  it('a threshold trigger made through the API fires on the simulator’s first live value and raises one Notification', async () => {
    const installer = await portal.api('installer@demo.local');
    // The plant model starts the battery of the n-th simulated controller at 40 + (17·n mod 50) %,
    // so between 40 and 89 % (40 % for the demo controller, the only one driven here), and one
    // sample moves it by a fraction of a percent: every value of this run is below 95, and a
    // "below 95" rule with no duration fires on the very first one.
    const created = await installer.mutate('notificationTrigger.create', {
      data: {
        name: TRIGGER_NAME,
        severity_level: 'ERROR',
        system_cuid: farm.system_cuid,
        message: MESSAGE,
        release_message: 'Battery of {system} back at {value} {unit}',
        args: { kind: 'threshold', entity_cuid: battery, parameter_id: 'battery_soc', op: 'below', value: 95, for_seconds: 0 },
      },
    });
    expect(created.error).toBeUndefined();
    trigger = created.data.data.id as string;

    basic = await openAs('basic@demo.local');
    expert = await openAs('expert@demo.local');
    other = await openAs('other@demo.local', '127.0.0.1');
    for (const page of [basic, expert, other]) await page.locator('[data-testid=toast-viewport][data-live=open]').waitFor({ timeout: 20_000 });
    // "open" shows once the stream started; the server registers it a moment later.
    const ready = await eventually(
      async () => Object.values(users).every(listening),
      (ok) => ok,
      15_000,
    );
    expect(ready).toBe(true);

    // The demo controller, live: samples from now on every 2 s of wall time, no dropouts, no outages.
    const fleet = await loadFleet(portal.app.db.dataSource, { controllers: [DEMO_CONTROLLER_ID] });
    expect(fleet.map((c) => c.controller_id)).toEqual([DEMO_CONTROLLER_ID]);
    transport = new HttpTransport(portal.app.baseUrl);
    sim = new Simulator(fleet, transport, {
      intervalSeconds: 2,
      speed: 1,
      dropoutRate: 0,
      offlinePerHour: 0,
      inFlight: 1,
      seed: 7,
      onError: (id, e) => console.warn(`simulator ${id}: ${e.message}`),
    });
    running = sim.start();

    const [n] = await eventually(
      () =>
        sql<{ notification_cuid: string; message: string; severity_level: string }>(
          `SELECT notification_cuid, message, severity_level::text FROM notification WHERE trigger_cuid = $1`,
          [trigger],
        ),
      (rows) => rows.length > 0,
      30_000,
    );
    expect(n).toBeDefined();
    notification = n.notification_cuid;

    // The simulator's first acknowledged state of charge of the battery is the value that fired.
    const socRows = () =>
      [...sim!.ledger.rows]
        .filter(([key]) => key.startsWith(`${battery}|battery_soc|`))
        .map(([key, value]) => ({ timestamp: Number(key.split('|')[2]), value }))
        .sort((a, b) => a.timestamp - b.timestamp);
    [firstValue] = await eventually(
      async () => socRows(),
      (r) => r.length > 0,
    );
    expect(firstValue.value).toBeGreaterThanOrEqual(35);
    expect(firstValue.value).toBeLessThan(95);
    expected = `Battery of ${farm.name} at ${firstValue.value} % (alarm below 95 %) on Battery bank`;
    expect(n.message).toBe(expected);
    expect(n.severity_level).toBe('ERROR');

    const [status] = await sql<{ trigger_state: string; state_since: Date }>(
      `SELECT trigger_state::text, state_since FROM notification_trigger_status WHERE trigger_cuid = $1`,
      [trigger],
    );
    expect(status.trigger_state).toBe('TRIGGERED');
    expect(status.state_since.getTime()).toBe(firstValue.timestamp);
    const events = await sql<{ status: string; notification_cuid: string; state: string }>(
      `SELECT status::text, notification_cuid, value->>'state' AS state FROM notification_trigger_event WHERE trigger_cuid = $1`,
      [trigger],
    );
    expect(events).toEqual([{ status: 'SENT', notification_cuid: notification, state: 'TRIGGERED' }]);
  });

  it('the Basic member sees the toast in the severity colour with the rendered message, and clicking it opens the system’s Alarms tab', async () => {
    const toast = toastOf(basic);
    await toast.waitFor({ timeout: 20_000 });
    expect(await toast.count()).toBe(1);
    expect(await toast.getAttribute('data-toast-id')).toBe(notification);
    expect(await toast.getAttribute('data-state')).toBe('open');
    expect(await toast.getAttribute('data-severity')).toBe('ERROR');
    expect(await toast.getAttribute('data-alarm-state')).toBe('TRIGGERED');
    expect(await toast.evaluate((el) => getComputedStyle(el).borderLeftColor)).toBe(rgb(SEVERITY_COLOURS.ERROR));
    expect(await toast.locator('.toast-title').textContent()).toContain(`${farm.name}: ${TRIGGER_NAME}`);
    expect(await toast.locator('.toast-message').textContent()).toBe(expected);
    // Dated with the device time of the sample that crossed, in the system's timezone.
    expect(await toast.locator('time').getAttribute('datetime')).toBe(new Date(firstValue.timestamp).toISOString());
    expect(await toast.locator('[data-testid=toast-timezone]').textContent()).toBe('Africa/Nairobi');

    await toast.locator('.toast-message').click();
    await basic.waitForURL(new RegExp(`/systems/${farm.system_cuid}/alarms$`), { timeout: 15_000 });
    await basic.locator('[data-testid=system-alarms]').waitFor();
    const active = basic.locator('[data-testid=system-alarms]').locator(`[data-testid=active-alarm][data-trigger="${trigger}"]`);
    await active.waitFor({ timeout: 15_000 });
    expect(await active.getAttribute('data-severity')).toBe('ERROR');
    expect(await active.textContent()).toContain(TRIGGER_NAME);
    expect(await active.textContent()).toContain(expected);
    // Clicking through does not acknowledge.
    expect(await active.locator('[data-testid=alarm-acknowledged]').count()).toBe(0);
    expect(await sql(`SELECT 1 FROM notification_user_history WHERE user_cuid = $1`, [users.basic])).toEqual([]);
    // The recent history of the tab has the firing.
    const history = basic.locator(`[data-testid=history-row][data-trigger="${trigger}"]`);
    await history.first().waitFor();
    expect(await history.first().getAttribute('data-state')).toBe('TRIGGERED');
  });

  it('the fleet’s active alarms screen lists it', async () => {
    await basic.goto(portal.url('/alarm'));
    await row(basic).waitFor({ timeout: 15_000 });
    expect(await row(basic).count()).toBe(1);
    expect(await row(basic).getAttribute('data-severity')).toBe('ERROR');
    const text = await row(basic).textContent();
    expect(text).toContain(farm.name);
    expect(text).toContain(TRIGGER_NAME);
    expect(text).toContain(expected);
  });

  it('Acknowledge from the Expert’s toast writes NotificationUserHistory: read in the Expert’s inbox, not in the Basic member’s', async () => {
    const toast = toastOf(expert);
    await toast.waitFor({ timeout: 20_000 });
    expect(await toast.getAttribute('data-toast-id')).toBe(notification);
    expect(await toast.locator('.toast-message').textContent()).toBe(expected);
    await toast.locator('[data-testid=toast-acknowledge]').click();
    await expert.waitForFunction((id) => !document.querySelector(`[data-testid=toast][data-toast-id="${id}"][data-state=open]`), notification);

    const acknowledged = await eventually(
      () => sql<{ user_cuid: string }>(`SELECT user_cuid FROM notification_user_history WHERE notification_cuid = $1`, [notification]),
      (rows) => rows.length > 0,
    );
    expect(acknowledged).toEqual([{ user_cuid: users.expert }]);

    const inboxItem = async (client: HttpClient) => {
      const answer = await client.query('inbox.list', { pagination: { page: 1, perPage: 25 }, unreadOnly: false });
      expect(answer.error).toBeUndefined();
      return (answer.data.data as { id: string; read: boolean; trigger_cuid: string | null; message: string }[]).find((i) => i.id === `alarm:${notification}`);
    };
    expect(await inboxItem(await portal.api('expert@demo.local'))).toMatchObject({ read: true, trigger_cuid: trigger, message: expected });
    expect(await inboxItem(await portal.api('basic@demo.local'))).toMatchObject({ read: false, trigger_cuid: trigger, message: expected });

    // The Expert's screens say so too.
    await expert.goto(portal.url('/inbox'));
    const item = expert.locator('[data-testid=inbox-item][data-kind=alarm]', { hasText: expected });
    await item.waitFor({ timeout: 15_000 });
    expect(await item.getAttribute('data-read')).toBe('true');
    await expert.goto(portal.url('/alarm'));
    await row(expert).locator('[data-testid=alarm-acknowledged]').waitFor({ timeout: 15_000 });
  });

  it('a member of the other company, listening all along, gets no toast and no row', async () => {
    expect(listening(users.other)).toBe(true);
    expect(await other.locator('[data-testid=toast-viewport]').getAttribute('data-live')).toBe('open');
    expect(await other.locator('[data-testid=toast]').count()).toBe(0);

    await other.goto(portal.url('/alarm', '127.0.0.1'));
    await other.locator('[data-testid=active-alarms], [data-testid=active-alarms-empty]').first().waitFor({ timeout: 15_000 });
    expect(await row(other).count()).toBe(0);
    expect(await other.getByText(TRIGGER_NAME).count()).toBe(0);

    const api = await portal.api('other@demo.local');
    const all = await api.query('alarm.active', {});
    expect(all.error).toBeUndefined();
    expect((all.data as { trigger_cuid: string }[]).filter((a) => a.trigger_cuid === trigger)).toEqual([]);
    const foreign = await api.query('alarm.active', { system_cuid: farm.system_cuid });
    expect(foreign.error?.data.code).toBe('NOT_FOUND');
    const inbox = await api.query('inbox.list', { pagination: { page: 1, perPage: 25 }, unreadOnly: false });
    expect((inbox.data.data as { id: string }[]).map((i) => i.id)).not.toContain(`alarm:${notification}`);
  });
});
