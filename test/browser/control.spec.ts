import type { BrowserContext, Page } from 'playwright-core';
import { applyMergePatch } from '../../shared/controllers/command-wire';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { issueSimulatorToken } from '../../server/src/simulator/fleet';
import { type BrowserPortal, eventually, PASSWORD, signIn, startBrowserPortal } from './support/portal';

type Json = Record<string, unknown>;

/**
 * Issue 12 in Chromium: an installer applies a configuration from the controller's page and sees
 * the grey PENDING toast turn green SUCCESS, the command in the Commands tab and the configuration
 * in sync; a dangerous command asks for the password again; an Expert and a Basic user get no Send
 * button. The controller is a small HTTP controller run here (GET …/commands, POST …/commands/ack
 * with the company's API token): the real protocol, no fake of the portal.
 */
describe('controller commands and configuration in Chromium', () => {
  let portal: BrowserPortal;
  let page: Page;
  let context: BrowserContext;
  let stop = false;
  let loop: Promise<void> | undefined;
  const acked: { id: string; kind: string }[] = [];

  const sql = <T>(query: string, params: unknown[] = []) => portal.app.db.dataSource.query<T[]>(query, params);

  /** The controller: fetches its commands, applies configuration patches to what it runs, acks SUCCESS. */
  async function runController(token: string) {
    const base = `${portal.app.baseUrl}/api/ingest/${DEMO_CONTROLLER_ID}`;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    let running: Json = {};
    const devices: Record<string, Json> = {};
    while (!stop) {
      const res = await fetch(`${base}/commands?limit=20`, { headers });
      if (res.ok) {
        const { commands } = (await res.json()) as { commands: { id: string; kind: string; payload: Json }[] };
        for (const c of commands) {
          const ack: Json = { id: c.id, status: 'SUCCESS', message: `${c.kind} done` };
          if (c.kind === 'apply_config') {
            const patch = c.payload as { controller?: Json; devices?: Record<string, Json> };
            if (patch.controller) running = applyMergePatch(running, patch.controller);
            for (const [cuid, p] of Object.entries(patch.devices ?? {})) devices[cuid] = applyMergePatch(devices[cuid] ?? {}, p);
            ack.applied_config = { controller: running, devices: Object.fromEntries(Object.keys(patch.devices ?? {}).map((k) => [k, devices[k]])) };
          }
          const answer = await fetch(`${base}/commands/ack`, { method: 'POST', headers, body: JSON.stringify(ack) });
          if (answer.ok) acked.push({ id: c.id, kind: c.kind });
        }
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  }

  beforeAll(async () => {
    portal = await startBrowserPortal();
    const [ctrl] = await sql<{ company_cuid: string }>(`SELECT company_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
    const token = await issueSimulatorToken(portal.app.db.dataSource, ctrl.company_cuid, 'browser controller');
    ({ context, page } = await portal.newPage());
    await signIn(page, portal.url('/auth/login'), 'installer@demo.local');
    // A change of the controller's desired configuration (what an installer saves on its edit page).
    const api = await portal.api('installer@demo.local');
    const saved = await api.mutate('controller.update', { id: DEMO_CONTROLLER_ID, data: { config: { log_level: 'debug', upload: { interval_s: 60 } } } });
    expect(saved.status).toBe(200);
    loop = runController(token);
  });
  afterAll(async () => {
    stop = true;
    await loop?.catch(() => undefined);
    await context?.close().catch(() => undefined);
    await portal?.close();
  });

  const toast = (id: string) => page.locator(`[data-testid=toast][data-toast-id="${id}"]`);

  it('applies the configuration: a grey PENDING toast turns green SUCCESS, the command is listed, the configuration is in sync', async () => {
    await page.goto(portal.url(`/controller/${DEMO_CONTROLLER_ID}/show/configuration`));
    const controllerTarget = page.locator(`[data-testid=config-target][data-key="${DEMO_CONTROLLER_ID}"]`);
    await controllerTarget.waitFor();
    expect(await controllerTarget.getAttribute('data-differs')).toBe('true');
    expect(await controllerTarget.locator('[data-testid=config-row][data-path="upload.interval_s"]').getAttribute('data-change')).toBe('added');
    expect(await controllerTarget.textContent()).toContain('never reported');

    await page.locator('[data-testid=config-apply-all]').click();
    const pending = page.locator('[data-testid=toast][data-type=ACTION_RESPONSE]').first();
    await pending.waitFor();
    const id = (await pending.getAttribute('data-toast-id')) as string;
    const [command] = await sql<{ kind: string; requested_by: string }>(`SELECT kind, requested_by FROM controller_command WHERE command_id = $1`, [id]);
    expect(command.kind).toBe('apply_config');
    // Green SUCCESS, the same toast (same id) replaced: never two of them.
    await eventually(
      () => toast(id).getAttribute('data-action-response'),
      (s) => s === 'SUCCESS',
    );
    expect(await toast(id).count()).toBe(1);
    expect(await toast(id).locator('.toast-icon').getAttribute('data-action-response')).toBe('SUCCESS');
    expect(acked.map((a) => a.id)).toContain(id);

    await eventually(
      () => page.locator('[data-testid=config-view]').getAttribute('data-in-sync'),
      (v) => v === 'true',
    );
    expect(await controllerTarget.getAttribute('data-differs')).toBe('false');
    expect(await page.locator('[data-testid=config-apply-all]').isDisabled()).toBe(true);
    expect(await page.locator('[data-testid=config-apply-all-reason]').textContent()).toContain('in sync');

    await page.goto(portal.url(`/controller/${DEMO_CONTROLLER_ID}/show/commands`));
    const row = page.locator(`[data-testid=command-row][data-command-id="${id}"]`);
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('SUCCESS');
    expect(await row.textContent()).toContain('Apply configuration');
    expect(await row.textContent()).toContain('apply_config done');
  });

  it('a dangerous command asks for the password: a wrong one is refused in the dialog, the right one sends it', async () => {
    await page.goto(portal.url(`/controller/${DEMO_CONTROLLER_ID}/show/commands`));
    await page.locator('[data-testid=send-command]').click();
    await page.locator('[data-testid=send-dialog]').waitFor();
    await page.locator('[data-testid=send-dialog] [role=combobox]').first().click();
    await page.locator('[role=listbox] [role=option][data-value=restart]').click();
    await page.locator('[data-testid=send-dangerous]').waitFor();
    const before = (await sql(`SELECT 1 FROM controller_command WHERE kind = 'restart'`)).length;
    await page.locator('[data-testid=send-submit]').click();

    const password = page.locator('[data-testid=step-up-password]');
    await password.waitFor();
    expect(await password.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('not-the-password');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=step-up-dialog]').getByText('The password is not right').waitFor();
    expect((await sql(`SELECT 1 FROM controller_command WHERE kind = 'restart'`)).length).toBe(before);

    await password.fill(PASSWORD);
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=step-up-dialog]').waitFor({ state: 'detached' });
    const [restart] = await eventually(
      () => sql<{ command_id: string; dangerous: boolean }>(`SELECT command_id, dangerous FROM controller_command WHERE kind = 'restart'`),
      (rows) => rows.length === before + 1,
    );
    expect(restart.dangerous).toBe(true);
    await eventually(
      () => toast(restart.command_id).getAttribute('data-action-response'),
      (s) => s === 'SUCCESS',
    );
    const row = page.locator(`[data-testid=command-row][data-command-id="${restart.command_id}"]`);
    await eventually(
      () => row.getAttribute('data-status'),
      (s) => s === 'SUCCESS',
    );
  });

  it('an Expert reads the commands but has no Send button; a Basic user does not get the page', async () => {
    for (const who of ['expert', 'basic']) {
      const { context: other, page: p } = await portal.newPage();
      try {
        await signIn(p, portal.url('/auth/login'), `${who}@demo.local`);
        await p.goto(portal.url(`/controller/${DEMO_CONTROLLER_ID}/show/commands`));
        if (who === 'expert') await p.locator('[data-testid=command-row]').first().waitFor();
        else await p.waitForLoadState('networkidle');
        expect({ who, send: await p.locator('[data-testid=send-command]').count() }).toEqual({ who, send: 0 });
        if (who === 'basic') expect(await p.locator('[data-testid=command-row]').count()).toBe(0);
      } finally {
        await other.close();
      }
    }
  });
});
