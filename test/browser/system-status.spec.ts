import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { screenshot } from './support/chromium';
import { type BrowserPortal, eventually, portalPerFile, openAs as openPageAs } from './support/portal';

const HOUR = 3_600_000;

/** The system status view, device mutes and the changelog filter in Chromium (issue 12). */
describe('system status view in Chromium', () => {
  let portal: BrowserPortal;
  const contexts: BrowserContext[] = portalPerFile((p) => (portal = p));
  let farm: string;
  let inverter: string;
  const now = Date.now();

  const q = (sql: string, params?: unknown[]) => portal.app.db.dataSource.query(sql, params);
  const openAs = (email: string, path: string): Promise<Page> => openPageAs(portal, contexts, email, path);

  beforeAll(async () => {
    farm = await portal.systemCuid('DSL-0001');
    [{ entity_cuid: inverter }] = await q(`SELECT entity_cuid FROM entity WHERE controller_id = $1 AND entitytype_id = 'victron-multiplus-ii'`, [
      DEMO_CONTROLLER_ID,
    ]);
    await q(`INSERT INTO device_state (entity_cuid, "timestamp", state_bundle) VALUES ($1, $2, $3)`, [
      inverter,
      new Date(now - 5 * 60_000),
      JSON.stringify({ inverter_state: 9, faults: ['F17'], warnings: ['Low battery'] }),
    ]);
    await q(`DELETE FROM controller_online_state_history WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
    for (const [h, s] of [
      [30, 'ONLINE'],
      [6, 'OFFLINE'],
      [5, 'ONLINE'],
    ] as const) {
      await q(`INSERT INTO controller_online_state_history (controller_id, "timestamp", online_state) VALUES ($1, $2, $3)`, [
        DEMO_CONTROLLER_ID,
        new Date(now - h * HOUR),
        s,
      ]);
    }
  });

  it('an Expert sees the inverter state made readable and the controller timeline, with no mute buttons', async () => {
    const page = await openAs('expert@demo.local', `/systems/${farm}`);
    await page.locator('[data-testid=tab-status]').click();
    const device = page.locator(`[data-testid=status-device][data-entity="${inverter}"]`);
    await device.waitFor({ timeout: 20_000 });
    await expect(device.locator('[data-testid=state-value][data-key=inverter_state]').innerText()).resolves.toMatch(/Inverter state\s+Inverting/);
    await expect(device.innerText()).resolves.not.toMatch(/Inverter state 9/);
    await expect(device.locator('[data-testid=fault-chip]').innerText()).resolves.toBe('F17');
    await expect(device.locator('[data-testid=warning-chip]').innerText()).resolves.toBe('Low battery');
    // "5 min ago" in the browser's English variant (en-US writes "5 min. ago")
    const fiveMinutesAgo = await page.evaluate(() => new Intl.RelativeTimeFormat(navigator.language, { numeric: 'auto', style: 'short' }).format(-5, 'minute'));
    await expect(device.innerText()).resolves.toContain(`Last reported ${fiveMinutesAgo}`);
    const segments = page.locator('[data-testid=status-controller] [data-testid=online-segment]');
    await expect(segments.evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))).resolves.toEqual(['ONLINE', 'OFFLINE', 'ONLINE']);
    // The text alternative: each segment is reached with the keyboard and says its state and from–to.
    await segments.nth(0).focus();
    await page.keyboard.press('Tab');
    await expect(segments.nth(1).evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await expect(segments.nth(1).getAttribute('aria-label')).resolves.toMatch(/^Offline from .+ to .+$/);
    await page
      .locator('[role=tooltip]')
      .filter({ hasText: /^Offline from/ })
      .waitFor({ timeout: 5_000 });
    await expect(page.locator('[data-testid=mute-device]').count()).resolves.toBe(0);
    await screenshot(page, 'system-status-expert');
  });

  it('an installer mutes the inverter for 4 hours with a reason, sees it listed, and finds it under Automatic in the changelog', async () => {
    const page = await openAs('installer@demo.local', `/systems/${farm}/status`);
    const device = page.locator(`[data-testid=status-device][data-entity="${inverter}"]`);
    await device.locator('[data-testid=mute-device]').click();
    const dialog = page.locator('[data-testid=mute-dialog]');
    await dialog.locator('[data-testid=mute-4h] input').check();
    await dialog.locator('[data-testid=mute-reason]').fill('Fan replacement');
    await dialog.locator('[data-testid=mute-confirm]').click();
    const row = page.locator('[data-testid=mute-row]');
    await row.first().waitFor({ timeout: 10_000 });
    await expect(row.innerText()).resolves.toMatch(/Fan replacement/);
    await expect(device.locator('[data-testid=device-muted]').innerText()).resolves.toMatch(/^Alarms muted until/);
    const [mute] = await eventually(
      () => q(`SELECT until, reason FROM device_mute WHERE entity_cuid = $1 AND ended_at IS NULL`, [inverter]),
      (rows) => rows.length === 1,
    );
    expect(Math.abs(new Date(mute.until).getTime() - (Date.now() + 4 * HOUR))).toBeLessThan(5 * 60_000);

    await page.locator('[role=tab]', { hasText: 'Changelog' }).click();
    await page.locator('[data-testid=changelog-entry]').first().waitFor({ timeout: 10_000 });
    await page.locator('[data-testid=changelog-show-automatic]').click();
    const muteEntry = page.locator('[data-testid=changelog-entry][data-kind=MUTE]');
    await muteEntry.first().waitFor({ timeout: 10_000 });
    await expect(muteEntry.first().innerText()).resolves.toMatch(/Mute\s*Alarms of .+ muted until/);
    await expect(page.locator('[data-testid=changelog-entry][data-kind=MANUAL]').count()).resolves.toBe(0);
    await expect(muteEntry.first().locator('[data-testid=changelog-edit]').count()).resolves.toBe(0);
    await page.locator('[data-testid=changelog-show-manual]').click();
    await page.locator('[data-testid=changelog-entry][data-kind=MANUAL]').first().waitFor({ timeout: 10_000 });
    await expect(page.locator('[data-testid=changelog-entry][data-kind=MUTE]').count()).resolves.toBe(0);
    await screenshot(page, 'system-changelog-manual');

    // Back to the status view: End mute.
    await page.goto(portal.url(`/systems/${farm}/status`));
    await page.locator('[data-testid=end-mute]').click();
    await page.locator('text=No device is muted.').waitFor({ timeout: 10_000 });
  });

  it('an Expert edits a manual changelog entry in its dialog with the keyboard', async () => {
    const page = await openAs('expert@demo.local', `/systems/${farm}/changelog`);
    await page.locator('[data-testid=changelog-show-manual]').click();
    const entry = page.locator('[data-testid=changelog-entry][data-kind=MANUAL]').first();
    await entry.locator('[data-testid=changelog-edit]').focus();
    await page.keyboard.press('Enter');
    const title = page.locator('[data-testid=changelog-edit-title]');
    await title.fill('Commissioned and checked');
    await title.press('Enter');
    await page.locator('[data-testid=changelog-entry]', { hasText: 'Commissioned and checked' }).waitFor({ timeout: 10_000 });
  });
});
