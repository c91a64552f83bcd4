import type { BrowserContext, Page } from 'playwright-core';
import { SEVERITY_COLOURS } from '../../shared/common/spec-constants';
import { LiveEventsService } from '../../server/src/alerts/portal/live-events.service';
import type { TToast } from '../../server/src/alerts/portal/portal.schema';
import { addEvent, addTrigger, eventValue, setStatus } from '../alerts/alarm-fixtures';
import { type BrowserPortal, eventually, signIn, startBrowserPortal } from './support/portal';

const rgb = (hex: string) => {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

/**
 * Issue 11, the alarm screens in Chromium as the demo installer (level 1): the fleet's active
 * alarms, a system's Alarms tab, muting from a row's menu with the keyboard, an alarm toast muted
 * from the toast (and the next one of that trigger dropped), and a threshold trigger made with the
 * rule form (its client-side check of the release value first). Alarm rows are written directly:
 * the engine and the outbox are other modules.
 */
describe('alarm screens in Chromium', () => {
  let portal: BrowserPortal;
  let page: Page;
  let context: BrowserContext;
  let farm: { system_cuid: string; name: string };
  let critical: string;
  let warning: string;
  let installer: string;

  const sql = <T>(query: string, params: unknown[] = []) => portal.app.db.dataSource.query<T[]>(query, params);

  beforeAll(async () => {
    portal = await startBrowserPortal();
    const ds = portal.app.db.dataSource;
    const system_cuid = await portal.systemCuid('DSL-0001');
    [farm] = await sql<{ system_cuid: string; name: string }>(`SELECT system_cuid, name FROM system WHERE system_cuid = $1`, [system_cuid]);
    installer = await portal.userCuid('installer@demo.local');
    const now = Date.now();
    critical = await addTrigger(ds, farm.system_cuid, { name: 'Battery critically low', severity: 'CRITICAL' });
    warning = await addTrigger(ds, farm.system_cuid, { name: 'Battery getting low', severity: 'WARNING' });
    await addEvent(ds, warning, eventValue('TRIGGERED', new Date(now - 3600_000), 28, farm), { severity: 'WARNING', message: 'Battery getting low: 28 %' });
    await setStatus(ds, warning, 'TRIGGERED', new Date(now - 3600_000), 28);
    await addEvent(ds, critical, eventValue('TRIGGERED', new Date(now - 600_000), 9, farm), { severity: 'CRITICAL', message: 'Battery critically low: 9 %' });
    await setStatus(ds, critical, 'TRIGGERED', new Date(now - 600_000), 9);
    ({ context, page } = await portal.newPage());
    await signIn(page, portal.url('/auth/login'), 'installer@demo.local');
  });
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await portal?.close();
  });

  const row = (trigger: string) => page.locator(`[data-testid=active-alarm][data-trigger="${trigger}"]`);

  it('lists the fleet’s active alarms, most severe first, in the severity colours; sorts by since', async () => {
    await page.goto(portal.url('/alarm'));
    await row(critical).waitFor();
    const order = async () =>
      (await page.locator('[data-testid=active-alarm]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-trigger')))).filter(
        (t) => t === critical || t === warning,
      );
    expect(await order()).toEqual([critical, warning]);
    const chip = row(critical).locator('[data-severity=CRITICAL]');
    expect(await chip.getAttribute('data-colour')).toBe('black');
    expect(
      await row(warning)
        .locator('[data-severity=WARNING]')
        .evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe('rgb(251, 192, 45)');
    expect(await row(critical).textContent()).toContain('Battery critically low: 9 %');
    // Since, oldest first (keyboard: the sort label is a button).
    await page.locator('[data-testid=sort-since]').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await eventually(order, (o) => o[0] === warning);
    expect(await order()).toEqual([warning, critical]);
  });

  it('mutes an alarm for 8 hours from its row menu, with the keyboard', async () => {
    await page.goto(portal.url('/alarm'));
    await row(critical).locator('[data-testid=alarm-menu]').focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=alarm-mute-8h]').waitFor();
    await page.locator('[data-testid=alarm-mute-8h]').focus();
    await page.keyboard.press('Enter');
    const [mute] = await eventually(
      () => sql<{ until: Date }>(`SELECT until FROM notification_user_blacklist WHERE user_cuid = $1 AND trigger_cuid = $2`, [installer, critical]),
      (r) => r.length === 1,
    );
    expect(Math.abs(mute.until.getTime() - (Date.now() + 8 * 3600_000))).toBeLessThan(60_000);
    await row(critical).locator('[data-testid=alarm-muted]').waitFor();
    // Unmute from the same menu.
    await row(critical).locator('[data-testid=alarm-menu]').click();
    await page.locator('[data-testid=alarm-unmute]').click();
    await eventually(
      () => sql(`SELECT 1 FROM notification_user_blacklist WHERE trigger_cuid = $1`, [critical]),
      (r) => r.length === 0,
    );
    expect(await sql(`SELECT 1 FROM notification_user_blacklist WHERE trigger_cuid = $1`, [critical])).toEqual([]);
  });

  it('shows a system’s active alarms and recent history on its Alarms tab', async () => {
    await page.goto(portal.url(`/systems/${farm.system_cuid}`));
    await page.locator('[data-testid=tab-alarms]').click();
    await page.waitForURL(new RegExp(`/systems/${farm.system_cuid}/alarms$`));
    await page.locator('[data-testid=system-alarms]').waitFor();
    await row(critical).waitFor();
    await row(warning).waitFor();
    const history = page.locator(`[data-testid=history-row][data-trigger="${critical}"]`);
    await history.first().waitFor();
    expect(await history.first().getAttribute('data-state')).toBe('TRIGGERED');
  });

  it('an alarm toast in its severity colour; Mute closes it and the next one of that trigger is dropped', async () => {
    await page.goto(portal.url('/alarm'));
    await page.locator('[data-testid=toast-viewport][data-live=open]').waitFor();
    const live = portal.app.app.get(LiveEventsService);
    const [n] = await sql<{ notification_cuid: string }>(`SELECT notification_cuid FROM notification WHERE trigger_cuid = $1`, [critical]);
    const toast = (id: string): TToast => ({
      id,
      type: 'NOTIFICATION',
      title: `${farm.name}: Battery critically low`,
      message: 'Battery critically low: 9 %',
      severity: 'CRITICAL',
      triggeredAt: { timestamp: new Date(), timezone: 'Africa/Nairobi' },
      onClickTarget: `/systems/${farm.system_cuid}/alarms`,
      alarm: { notification_cuid: n.notification_cuid, trigger_cuid: critical, system_cuid: farm.system_cuid, state: 'TRIGGERED' },
    });
    const shown = page.locator('[data-testid=toast][data-toast-id=alarm-toast-1][data-state=open]');
    // "open" shows once the stream has started; the server may register it a moment later (on a
    // loaded machine many seconds later: a 10 s window ran out in a CI run). A toast id is shown
    // once, so publishing it again until it shows is harmless; the test's own limit still applies.
    await eventually(
      async () => (await live.publish([installer], { kind: 'toast', toast: toast('alarm-toast-1') }), shown.count()),
      (n) => n === 1,
      90_000,
    );
    await shown.waitFor();
    expect(await shown.getAttribute('data-trigger')).toBe(critical);
    expect(await shown.evaluate((el) => getComputedStyle(el).borderLeftColor)).toBe(rgb(SEVERITY_COLOURS.CRITICAL));
    await shown.locator('[data-testid=toast-mute]').click();
    await page.waitForFunction(() => !document.querySelector('[data-testid=toast][data-toast-id=alarm-toast-1][data-state=open]'));
    const [mute] = await eventually(
      () => sql<{ until: Date }>(`SELECT until FROM notification_user_blacklist WHERE user_cuid = $1 AND trigger_cuid = $2`, [installer, critical]),
      (r) => r.length === 1,
    );
    expect(Math.abs(mute.until.getTime() - (Date.now() + 24 * 3600_000))).toBeLessThan(60_000);
    // The session now carries the mute: the next toast of that trigger is dropped, another trigger's is shown.
    await page.waitForTimeout(500);
    await live.publish([installer], { kind: 'toast', toast: toast('alarm-toast-2') });
    await live.publish([installer], { kind: 'toast', toast: { ...toast('other-trigger'), alarm: { ...toast('x').alarm!, trigger_cuid: warning } } });
    await page.locator('[data-testid=toast][data-toast-id=other-trigger]').waitFor();
    expect(await page.locator('[data-testid=toast][data-toast-id=alarm-toast-2]').count()).toBe(0);
  });

  it('creates a threshold trigger with the rule form; a release value on the wrong side is refused in the browser', async () => {
    const name = `Rule form ${Date.now().toString(36)}`;
    await page.goto(portal.url('/notificationTrigger/create'));
    await page.locator('input[name=name]').fill(name);
    const pick = async (source: string, text: string) => {
      const input = page.locator(`input[name="${source}"]`);
      await input.click();
      await input.fill(text);
      const option = page.getByRole('option', { name: new RegExp(text) }).first();
      await option.waitFor({ timeout: 10_000 });
      await option.click();
    };
    await pick('system_cuid', farm.name);
    await page.locator('textarea[name=message]').fill('Battery at {value} {unit} on {system}');
    await page.locator('[data-testid=rule-placeholders]').getByText('{value} {threshold} {parameter} {unit} {device} {system} {time}').waitFor();
    await pick('args.entity_cuid', 'Battery bank');
    await pick('args.parameter_id', 'battery_soc');
    await page.locator('input[name="args.value"]').fill('20');
    await page.locator('input[name="args.release_value"]').fill('15');
    await page.locator('input[name="args.for_seconds"]').fill('60');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Must be at least the trigger value (it releases above it)').waitFor();
    expect(await sql(`SELECT 1 FROM notification_trigger WHERE name = $1`, [name])).toEqual([]);

    await page.locator('input[name="args.release_value"]').fill('25');
    await page.getByRole('button', { name: 'Save' }).click();
    const [saved] = await eventually(
      () => sql<{ args: Record<string, unknown> }>(`SELECT args FROM notification_trigger WHERE name = $1`, [name]),
      (r) => r.length === 1,
    );
    expect(saved.args).toEqual({
      kind: 'threshold',
      entity_cuid: expect.any(String),
      parameter_id: 'battery_soc',
      op: 'below',
      value: 20,
      release_value: 25,
      for_seconds: 60,
      release_for_seconds: 0,
    });
    const [device] = await sql<{ name: string }>(`SELECT name FROM entity WHERE entity_cuid = $1`, [saved.args.entity_cuid]);
    expect(device.name).toBe('Battery bank');
  });
});
