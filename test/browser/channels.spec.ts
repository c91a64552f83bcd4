import type { BrowserContext, Page } from 'playwright-core';
import { SmtpPeer, verifyLinkOf } from '../factories/smtp-peer';
import { TelegramPeer } from '../factories/telegram-peer';
import { type BrowserPortal, eventually, signIn, startBrowserPortal } from './support/portal';

/**
 * Channel screens in Chromium as the demo company's Basic user, against a real SMTP server and a
 * local Telegram Bot API peer: an e-mail channel from "check your inbox" to Active and a test
 * message; a Telegram channel showing its /start command and turning "Linked to <group>" by
 * itself; a trigger switched on for a channel with the keyboard.
 */
describe('channels in Chromium', () => {
  const TOKEN = '7000001:browser-secret-token';
  let portal: BrowserPortal;
  let page: Page;
  let context: BrowserContext;
  let smtp: SmtpPeer;
  let telegram: TelegramPeer;

  beforeAll(async () => {
    smtp = await SmtpPeer.start();
    telegram = await TelegramPeer.start(TOKEN);
    portal = await startBrowserPortal({ SMTP_URL: smtp.url, TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_URL: telegram.url, TELEGRAM_POLL_SECONDS: '1' });
    ({ context, page } = await portal.newPage());
    await signIn(page, portal.url('/auth/login'), 'basic@demo.local');
  });
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await portal?.close();
    await telegram?.close();
    await smtp?.close();
  });

  /** basic@demo.local belongs to one company: the form has it picked already. */
  async function pickCompany(): Promise<void> {
    const input = page.locator('input[name=company_cuid]');
    await eventually(
      () => input.inputValue(),
      (v: string) => v === 'Demo Solar Ltd',
    );
  }

  it('e-mail: check your inbox, the link confirms, the test message arrives', async () => {
    await page.goto(portal.url('/notificationChannel/create'));
    await pickCompany();
    await page.getByTestId('channel-email').fill('browser@example.test');
    await page.getByTestId('channel-create-submit').click();
    await page.getByTestId('email-check-inbox').waitFor();
    const mail = await smtp.waitFor(1);
    const link = new URL(verifyLinkOf(mail.raw)!);
    // resend: a second mail with another link
    await page.getByTestId('email-resend').click();
    const second = new URL(verifyLinkOf((await smtp.waitFor(2)).raw)!);
    expect(second.search).not.toBe(link.search);
    const verify = await context.newPage();
    await verify.goto(portal.url(second.pathname + second.search));
    await verify.getByText('Address confirmed').waitFor();
    await verify.close();
    // the page polls while pending: it turns Active by itself
    await page.locator('[data-testid=channel-details][data-status=ACTIVE]').waitFor({ timeout: 15_000 });
    await page.getByTestId('channel-send-test').click();
    await page.getByText('Test message sent').waitFor();
    await smtp.waitFor(3);
  });

  it('telegram: shows the /start command and deep link, then "Linked to <group>"', async () => {
    await page.goto(portal.url('/notificationChannel/create'));
    await pickCompany();
    await page.getByTestId('channel-source-TELEGRAM').click();
    await page.getByTestId('channel-create-submit').click();
    const command = page.getByTestId('telegram-command');
    await command.waitFor();
    const text = await command.inputValue();
    expect(text).toMatch(/^\/start [A-Za-z0-9_-]{16}$/);
    expect(await page.getByTestId('telegram-deeplink').getAttribute('href')).toBe(`https://t.me/portal_test_bot?startgroup=${text.split(' ')[1]}`);
    telegram.push({ message: { message_id: 1, chat: { id: -100777, type: 'supergroup', title: 'Field team' }, text } });
    await page.getByTestId('telegram-linked').getByText('Linked to Field team').waitFor({ timeout: 15_000 });
    expect(await page.content()).not.toContain(TOKEN);
  });

  it('a trigger is switched on for the channel with the keyboard', async () => {
    const admin = await portal.api('superuser@demo.local');
    const [{ system_cuid, company_cuid }] = await portal.app.db.dataSource.query<{ system_cuid: string; company_cuid: string }[]>(
      `SELECT s.system_cuid, s.company_cuid FROM system s JOIN company c ON c.company_cuid = s.company_cuid WHERE c.name = 'Demo Solar Ltd' ORDER BY s.name LIMIT 1`,
    );
    const trigger = await admin.mutate('notificationTrigger.create', {
      data: { name: 'Browser battery low', message: 'Battery {value}', system_cuid, args: { kind: 'offline' } },
    });
    const trigger_cuid = trigger.data.data.id as string;
    const [{ channel_cuid }] = await portal.app.db.dataSource.query<{ channel_cuid: string }[]>(
      `SELECT c.channel_cuid FROM notification_channel c JOIN email_notification_channel e ON e.channel_cuid = c.channel_cuid WHERE e.email = 'browser@example.test' AND c.company_cuid = $1`,
      [company_cuid],
    );
    await page.goto(portal.url(`/notificationChannel/${channel_cuid}/show`));
    // The title names the channel's kind in words, never its code.
    await page.locator('header').getByText('Channel Email', { exact: true }).waitFor();
    expect(await page.getByText(/EMAIL/).count()).toBe(0);
    const toggle = page.getByTestId(`channel-link-${trigger_cuid}`).locator('input');
    await toggle.focus();
    await page.keyboard.press('Space');
    await eventually(
      () =>
        portal.app.db.dataSource.query(`SELECT enabled FROM notification_channel_to_trigger WHERE channel_cuid = $1 AND trigger_cuid = $2`, [
          channel_cuid,
          trigger_cuid,
        ]),
      (rows: { enabled: boolean }[]) => rows.length === 1 && rows[0].enabled === true,
    );
    // The switch shows the stored state once the page has read it back (it may lag the write).
    expect(
      await eventually(
        () => toggle.isChecked(),
        (checked) => checked,
      ),
    ).toBe(true);
  });
});
