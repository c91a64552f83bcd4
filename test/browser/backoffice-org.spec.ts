import type { Page } from 'playwright-core';
import { DEMO_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { screenshot } from './support/chromium';
import { type BrowserPortal, portalPerFile, signIn } from './support/portal';

const NEW_EMAIL = 'new.operator@demo.local';
const NEW_NAME = 'New Operator';
const NEW_PASSWORD = 'a-long-secret-9';

/**
 * Issue 4, organisation screens: a company admin (not a superuser) creates a user with a
 * password and a first membership; the new user signs in; the admin deactivates them and the
 * new user's open page is signed out. A Basic user sees no Organisation section at all.
 */
describe('organisation screens in Chromium', () => {
  let portal: BrowserPortal;
  const contexts = portalPerFile((p) => (portal = p));

  const openAs = async (email: string, password?: string): Promise<Page> => {
    const { context, page } = await portal.newPage();
    contexts.push(context);
    await signIn(page, portal.url('/auth/login'), email, password);
    return page;
  };
  const db = <T>(sql: string, params: unknown[] = []) => portal.app.db.dataSource.query<T[]>(sql, params);

  it('a company admin creates a user who signs in, then deactivates them: the open page goes to /auth/login', async () => {
    const admin = await openAs('installer@demo.local');

    // Organisation → Users → Create.
    await admin.getByRole('group', { name: 'Organisation' }).waitFor();
    await admin.getByRole('menuitem', { name: 'Users' }).click();
    await admin.locator('[data-testid=user-list]').waitFor();
    await admin.getByRole('link', { name: 'Create' }).click();
    await admin.waitForURL(/\/user\/create$/);

    await admin.locator('input[name=email]').fill(NEW_EMAIL);
    await admin.locator('input[name=name]').fill(NEW_NAME);
    // Too short a password is refused in the form, before the server.
    await admin.locator('input[name=password]').fill('short');
    await admin.locator('input[name=company_cuid]').fill('Demo');
    await admin.getByRole('option', { name: DEMO_COMPANY_NAME }).click();
    // The role: a select showing the level colours, chosen with the keyboard.
    await admin.locator('#role_cuid').focus();
    await admin.keyboard.press('Enter');
    const basic = admin.getByRole('option', { name: /Basic/ });
    await basic.waitFor();
    expect(await basic.locator('[data-level="3"]').getAttribute('data-colour')).toBe('green');
    expect(
      await admin
        .getByRole('option', { name: /Superuser/ })
        .locator('[data-level="0"]')
        .getAttribute('data-colour'),
    ).toBe('red');
    await basic.click();
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.locator('input[name=password][aria-invalid=true]').waitFor();
    await admin
      .getByText(/8 characters/)
      .first()
      .waitFor();
    expect(await db('SELECT 1 FROM "user" WHERE email = $1', [NEW_EMAIL])).toHaveLength(0);

    await admin.locator('input[name=password]').fill(NEW_PASSWORD);
    await screenshot(admin, 'org-user-create');
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.waitForURL(/\/user$/, { timeout: 15_000 });

    const [created] = await db<{ user_cuid: string; name: string; inactive: boolean }>('SELECT user_cuid, name, inactive FROM "user" WHERE email = $1', [
      NEW_EMAIL,
    ]);
    expect(created).toMatchObject({ name: NEW_NAME, inactive: false });
    const memberships = await db<{ company: string; level: number; is_company_admin: boolean }>(
      `SELECT c.name AS company, r.level, m.is_company_admin FROM company_membership m
         JOIN company c ON c.company_cuid = m.company_cuid JOIN role r ON r.role_cuid = m.role_cuid
        WHERE m.user_cuid = $1`,
      [created.user_cuid],
    );
    expect(memberships).toEqual([{ company: DEMO_COMPANY_NAME, level: 3, is_company_admin: false }]);

    // The new user signs in with the password the admin gave.
    const newcomer = await openAs(NEW_EMAIL, NEW_PASSWORD);
    expect(new URL(newcomer.url()).pathname).toBe('/');

    // The admin finds them in the list and deactivates them, after a confirmation.
    await admin.locator('input[name=q]').fill('new.operator');
    const row = admin.locator('[data-testid=user-list] tbody tr', { hasText: NEW_EMAIL });
    await row.waitFor();
    await admin.waitForFunction(() => document.querySelectorAll('[data-testid=user-list] tbody tr').length === 1);
    await row.locator('[data-testid=user-deactivate]').click();
    const dialog = admin.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(NEW_EMAIL);
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await row.locator('[data-testid=user-inactive]').waitFor();
    await screenshot(admin, 'org-user-deactivated');

    // Within a few seconds the newcomer's open page is signed out.
    await newcomer.waitForURL(/\/auth\/login$/, { timeout: 5000 });
    const [after] = await db<{ inactive: boolean; inactivated_by_user_cuid: string }>(
      'SELECT inactive, inactivated_by_user_cuid FROM "user" WHERE email = $1',
      [NEW_EMAIL],
    );
    expect(after.inactive).toBe(true);
    expect(after.inactivated_by_user_cuid).toBe(await portal.userCuid('installer@demo.local'));

    // Reactivate: the confirmation says when and by whom they were deactivated.
    await row.locator('[data-testid=user-reactivate]').click();
    await dialog.waitFor();
    await dialog.locator('[data-testid=user-inactivated-info]').getByText('Demo Installer').waitFor();
    await dialog.getByRole('button', { name: 'Reactivate' }).click();
    await row.locator('[data-testid=user-active]').waitFor();

    // A company admin who is not a superuser is not offered Delete (level 0 only).
    expect(await row.getByRole('button', { name: 'Delete' }).count()).toBe(0);
  });

  it('a superuser may delete another user but is never offered to delete themselves', async () => {
    const page = await openAs('superuser@demo.local');
    await page.goto(portal.url('/user'));
    await page.locator('[data-testid=user-list]').waitFor();
    const self = page.locator('[data-testid=user-list] tbody tr', { hasText: 'superuser@demo.local' });
    const other = page.locator('[data-testid=user-list] tbody tr', { hasText: 'basic@demo.local' });
    await other.getByRole('button', { name: 'Delete' }).waitFor();
    await self.waitFor();
    expect(await self.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await self.locator('[data-testid=user-deactivate]').count()).toBe(0);
  });

  it('JSON fields: a syntax error is shown with its line and column and blocks saving; Format pretty-prints', async () => {
    const page = await openAs('installer@demo.local');
    const [company] = await db<{ company_cuid: string; meta: unknown }>('SELECT company_cuid, meta FROM company WHERE name = $1', [DEMO_COMPANY_NAME]);
    await page.goto(portal.url(`/company/${company.company_cuid}`));
    const editor = page.locator('[data-testid=json-input-meta] textarea').first();
    await editor.waitFor();
    await editor.fill('{\n  "region": "north",\n  "sites" 3\n}');
    const alert = page.locator('[data-testid=json-input-meta] [role=alert]');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/line 3, column 11/);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe(`/company/${company.company_cuid}`);
    expect((await db<{ meta: unknown }>('SELECT meta FROM company WHERE company_cuid = $1', [company.company_cuid]))[0].meta).toEqual(company.meta);

    // Fixed and compacted, then formatted with the button (keyboard: Tab from the text reaches the page, not a trap).
    await editor.fill('{"region":"north","sites":3}');
    expect(await alert.count()).toBe(0);
    await page.locator('[data-testid=json-input-meta]').getByRole('button', { name: 'Format' }).click();
    expect(await editor.inputValue()).toBe('{\n  "region": "north",\n  "sites": 3\n}');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/company$/);
    expect((await db<{ meta: unknown }>('SELECT meta FROM company WHERE company_cuid = $1', [company.company_cuid]))[0].meta).toEqual({
      region: 'north',
      sites: 3,
    });
  });

  it('an API token is created with its secret shown once, then revoked', async () => {
    const page = await openAs('installer@demo.local');
    await page.getByRole('menuitem', { name: 'API tokens' }).click();
    await page.locator('[data-testid=token-list]').waitFor();
    await page.getByRole('link', { name: 'Create' }).click();
    await page.waitForURL(/\/authToken\/create$/);
    await page.locator('input[name=company_cuid]').fill('Demo');
    await page.getByRole('option', { name: DEMO_COMPANY_NAME }).click();
    await page.locator('input[name=description]').fill('Gateway at site 4');
    await page.getByRole('button', { name: 'Create the token' }).click();
    const secret = page.locator('[data-testid=token-secret]');
    await secret.waitFor();
    const value = await secret.inputValue();
    expect(value.length).toBeGreaterThanOrEqual(20);
    await page.locator('[data-testid=token-secret-warning]').waitFor();
    // The database keeps a hash, never the secret.
    const rows = await db<{ token_cuid: string }>('SELECT token_cuid FROM auth_token WHERE description = $1', ['Gateway at site 4']);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(await db('SELECT * FROM auth_token WHERE token_cuid = $1', [rows[0].token_cuid]))).not.toContain(value);
    await screenshot(page, 'org-token-secret');

    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.waitForURL(/\/authToken$/);
    const row = page.locator('[data-testid=token-list] tbody tr', { hasText: 'Gateway at site 4' });
    await row.waitFor();
    // The list never shows the secret again.
    expect(await page.locator('[data-testid=token-list]').textContent()).not.toContain(value);
    await row.locator('[data-testid=token-revoke]').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const [revoked] = await db<{ revoked_at: Date | null }>('SELECT revoked_at FROM auth_token WHERE token_cuid = $1', [rows[0].token_cuid]);
    expect(revoked.revoked_at).not.toBeNull();
  });

  it('files: upload with progress, the server refusing a type shown, download and delete', async () => {
    const page = await openAs('installer@demo.local');
    await page.getByRole('menuitem', { name: 'Files' }).click();
    await page.locator('[data-testid=file-list]').waitFor();
    const choose = async (name: string, mimeType: string, buffer: Buffer) => {
      await page.locator('[data-testid=file-upload-open]').click();
      await page.getByRole('dialog').waitFor();
      await page.locator('[data-testid=file-upload-limits]').waitFor();
      await page.locator('[data-testid=file-upload-input]').setInputFiles({ name, mimeType, buffer });
      await page.getByRole('combobox', { name: /Company/ }).click();
      await page.getByRole('option', { name: DEMO_COMPANY_NAME }).click();
      await page.locator('[data-testid=file-upload-send]').click();
    };

    // A type the server does not accept: its answer is shown in the dialog, nothing is stored.
    await choose('anim.gif', 'image/gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'));
    const error = page.locator('[data-testid=file-upload-error]');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/image\/gif are not accepted/);
    expect(await db('SELECT 1 FROM hosted_file WHERE "fileName" = $1', ['anim.gif'])).toHaveLength(0);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // A PNG: uploaded, listed with its type and size, downloadable.
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2400, 7)]);
    await choose('site-plan.png', 'image/png', png);
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const row = page.locator('[data-testid=file-list] tbody tr', { hasText: 'site-plan.png' });
    await row.waitFor();
    expect(await row.textContent()).toContain('image/png');
    expect(await row.textContent()).toContain('2.4 kB');
    const href = await row.locator('[data-testid=file-download]').getAttribute('href');
    const bytes = await page.evaluate(async (url) => {
      const res = await fetch(url!);
      return { status: res.status, size: (await res.arrayBuffer()).byteLength, type: res.headers.get('content-type') };
    }, href);
    expect(bytes).toEqual({ status: 200, size: png.length, type: 'image/png' });

    // Delete, after a confirmation.
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await db('SELECT 1 FROM hosted_file WHERE "fileName" = $1', ['site-plan.png'])).toHaveLength(0);
  });

  it('documentation: written in Markdown with a preview, one active version per type', async () => {
    const api = await portal.api('superuser@demo.local');
    const older = await api.mutate('documentation.create', { data: { documentation_type: 'DATAPROCESSORTYPE', content: '# Old version', is_active: true } });
    expect(older.error).toBeUndefined();

    const page = await openAs('superuser@demo.local');
    await page.getByRole('menuitem', { name: 'Documentation' }).click();
    await page.locator('[data-testid=documentation-list]').waitFor();
    await page.getByRole('link', { name: 'Create' }).click();
    await page.waitForURL(/\/documentation\/create$/);
    await page.getByRole('combobox', { name: /Type/ }).click();
    await page.getByRole('option', { name: 'Data processor types' }).click();
    await page.locator('textarea[name=content]').fill('# New version\n\nSee [the manual](https://example.com/manual).');
    // The Preview tab, reached with the keyboard (arrow keys move between tabs).
    await page.getByRole('tab', { name: 'Write' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    const preview = page.locator('[data-testid=markdown-preview]');
    await preview.locator('h1', { hasText: 'New version' }).waitFor();
    expect(await preview.getByRole('link', { name: 'the manual' }).getAttribute('href')).toBe('https://example.com/manual');
    await screenshot(page, 'org-documentation-preview');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/documentation$/);

    const row = page.locator('[data-testid=documentation-list] tbody tr', { hasText: 'New version' });
    await row.locator('[data-testid=documentation-make-active]').click();
    await row.locator('[data-testid=documentation-active]').waitFor();
    const active = await db<{ content: string }>(`SELECT content FROM documentation WHERE documentation_type = 'DATAPROCESSORTYPE' AND is_active`);
    expect(active.map((d) => d.content)).toEqual(['# New version\n\nSee [the manual](https://example.com/manual).']);
  });

  it('domains: a root domain and a sub-domain with branding JSON and its preview', async () => {
    const page = await openAs('superuser@demo.local');
    await page.getByRole('menuitem', { name: 'Root domains' }).click();
    await page.locator('[data-testid=root-domain-list]').waitFor();
    await page.getByRole('link', { name: 'Create' }).click();
    await page.waitForURL(/\/rootDomain\/create$/);
    await page.locator('input[name=name]').fill('power.example.africa');
    await page
      .locator('[data-testid=json-input-root_domain_data] textarea')
      .first()
      .fill('{"title": "Power Africa", "colors": {"primary": "#114477", "secondary": "#ffaa00"}}');
    await page.locator('[data-testid=branding-preview-title]', { hasText: 'Power Africa' }).waitFor();
    await screenshot(page, 'org-root-domain-preview');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/rootDomain$/);

    await page.getByRole('menuitem', { name: 'Domains', exact: true }).click();
    await page.locator('[data-testid=domain-list]').waitFor();
    await page.getByRole('link', { name: 'Create' }).click();
    await page.waitForURL(/\/domain\/create$/);
    await page.locator('input[name=sub_domain_name]').fill('acme');
    await page.locator('input[name=root_domain_name]').fill('power');
    await page.getByRole('option', { name: 'power.example.africa' }).click();
    await page.locator('[data-testid=domain-name-preview]', { hasText: 'acme.power.example.africa' }).waitFor();
    await page.locator('[data-testid=json-input-domain_data] textarea').first().fill('{"title": "Acme power"}');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/domain$/);
    const rows = await db<{ name: string; root_domain_name: string; domain_data: unknown }>(
      'SELECT name, root_domain_name, domain_data FROM domain WHERE sub_domain_name = $1',
      ['acme'],
    );
    expect(rows).toEqual([{ name: 'acme.power.example.africa', root_domain_name: 'power.example.africa', domain_data: { title: 'Acme power' } }]);
  });

  it("memberships: a company admin changes another member's role, never their own", async () => {
    const page = await openAs('installer@demo.local');
    await page.getByRole('menuitem', { name: 'Memberships' }).click();
    await page.locator('[data-testid=membership-list]').waitFor();
    const own = page.locator('[data-testid=membership-list] tbody tr', { hasText: 'installer@demo.local' });
    const expert = page.locator('[data-testid=membership-list] tbody tr', { hasText: 'expert@demo.local' });
    await expert.waitFor();
    // Level colours on the list: Expert is blue.
    expect(await expert.locator('[data-level]').getAttribute('data-colour')).toBe('blue');
    expect(await own.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    await expert.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(/\/companyMembership\/[^/]+$/);
    await page.locator('#role_cuid').click();
    await page.getByRole('option', { name: /Basic/ }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/companyMembership$/);
    await expert.locator('[data-level="3"]').waitFor();
    const [row] = await db<{ level: number }>(
      `SELECT r.level FROM company_membership m JOIN role r ON r.role_cuid = m.role_cuid JOIN "user" u ON u.user_cuid = m.user_cuid WHERE u.email = 'expert@demo.local'`,
    );
    expect(row.level).toBe(3);
    // Back to Expert, through the API, for the other tests.
    const api = await portal.api('superuser@demo.local');
    const [m] = await db<{ membership_cuid: string }>(
      `SELECT membership_cuid FROM company_membership m JOIN "user" u ON u.user_cuid = m.user_cuid WHERE u.email = 'expert@demo.local'`,
    );
    const [role] = await db<{ role_cuid: string }>('SELECT role_cuid FROM role WHERE level = 2');
    expect((await api.mutate('companyMembership.update', { membership_cuid: m.membership_cuid, role_cuid: role.role_cuid })).error).toBeUndefined();
  });

  it('events: a superuser creates a template with a severity (spec colours), device type and a rule from the rule form', async () => {
    // A device type that logs the battery's charge (the rule's parameter must be one it logs).
    const [type] = await db<{ entitytype_id: string; model: string }>(
      `SELECT t.entitytype_id, t.model FROM entity_type t
         JOIN entity_type_log_parameter_assignment a ON a.entitytype_id = t.entitytype_id AND a.parameter_id = 'battery_soc'
        ORDER BY t.entitytype_id LIMIT 1`,
    );
    const page = await openAs('superuser@demo.local');
    await page.getByRole('menuitem', { name: 'Event templates' }).click();
    await page.locator('[data-testid=template-list]').waitFor();
    await page.getByRole('link', { name: 'Create' }).click();
    await page.waitForURL(/\/notificationTemplateAssignment\/create$/);
    await page.locator('input[name=name]').fill('Battery low');
    await page.getByRole('combobox', { name: /Severity/ }).click();
    const critical = page.getByRole('option', { name: 'CRITICAL' });
    expect(await critical.locator('[data-severity]').getAttribute('data-colour')).toBe('black');
    expect(await page.getByRole('option', { name: 'WARNING' }).locator('[data-severity]').getAttribute('data-colour')).toBe('yellow');
    await critical.click();
    await page.locator('input[name=entitytype_id]').fill(type.model.slice(0, 4));
    await page
      .getByRole('option', { name: new RegExp(type.entitytype_id) })
      .first()
      .click();
    await page.locator('textarea[name=message]').fill('Battery below {threshold} %');
    // The rule form (a threshold by default, below): the parameter, the trigger and release values.
    const parameter = page.locator('input[name="args.parameter_id"]');
    await parameter.click();
    await parameter.fill('battery_soc');
    await page
      .getByRole('option', { name: /battery_soc/ })
      .first()
      .click();
    await page.locator('input[name="args.value"]').fill('20');
    await page.locator('input[name="args.release_value"]').fill('25,5');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/notificationTemplateAssignment$/);
    const row = page.locator('[data-testid=template-list] tbody tr', { hasText: 'Battery low' });
    expect(await row.locator('[data-severity=CRITICAL]').getAttribute('data-colour')).toBe('black');
    const [saved] = await db<{ severity_level: string; args: unknown; entitytype_id: string }>(
      `SELECT severity_level::text, args, entitytype_id FROM notification_template_assignment WHERE name = 'Battery low'`,
    );
    expect(saved).toEqual({
      severity_level: 'CRITICAL',
      args: { kind: 'threshold', parameter_id: 'battery_soc', op: 'below', value: 20, release_value: 25.5, for_seconds: 0, release_for_seconds: 0 },
      entitytype_id: type.entitytype_id,
    });
  });

  it('a Basic user sees no Organisation section and is not offered its pages', async () => {
    const page = await openAs('basic@demo.local');
    // The Events section (channels are open to all) shows once the access checks have answered.
    await page.getByRole('group', { name: 'Events' }).waitFor();
    expect(await page.getByRole('group', { name: 'Organisation' }).count()).toBe(0);
    for (const name of ['Users', 'Companies', 'Memberships', 'Roles']) {
      expect(await page.getByRole('menuitem', { name }).count()).toBe(0);
    }
    await screenshot(page, 'org-basic-menu');
  });
});
