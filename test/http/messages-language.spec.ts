import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';

/**
 * Server messages in the caller's language, over real HTTP: a user whose stored language is
 * French reads French tRPC errors (the message, zod's own field errors and ours, a foreign id's
 * NOT_FOUND); before sign-in the browser's Accept-Language decides for the REST answers; every
 * answer carries the message's stable code beside it.
 */
describe('server messages in the caller language (HTTP)', () => {
  let t: TestApp;
  let foreignSystem: string;
  beforeAll(async () => {
    t = await startTestApp();
    // A system of Demo Solar Ltd that Other Energy Co does not see.
    const [row] = await t.db.dataSource.query(`SELECT system_cuid FROM system WHERE name = $1`, [DEMO_SYSTEMS.farm]);
    foreignSystem = row.system_cuid;
  });
  afterAll(async () => {
    await t?.close();
  });

  async function signedIn(email: string, language?: 'en' | 'fr'): Promise<HttpClient> {
    const c = new HttpClient(t.baseUrl);
    expect((await c.login(email)).status).toBe(200);
    if (language) expect((await c.mutate('user.updatePreferences', { language })).status).toBe(200);
    return c;
  }

  it('a French user: a foreign id answers NOT_FOUND in French, with the English code beside it', async () => {
    const fr = await signedIn('other@demo.local', 'fr');
    const foreign = await fr.query('system.getOne', { id: foreignSystem });
    expect(foreign.status).toBe(404);
    expect(foreign.error?.message).toBe('Système introuvable');
    expect((foreign.error?.data as { messageCode?: string }).messageCode).toBe('System not found');
    // The same call in English for an English user.
    const en = await signedIn('basic@demo.local', 'en');
    const mine = await en.query('system.getOne', { id: 'zzzzzzzzzzzzzzzzzzzzzzzz' });
    expect(mine.status).toBe(404);
    expect(mine.error?.message).toBe('System not found');
    expect((mine.error?.data as { messageCode?: string }).messageCode).toBe('System not found');
  });

  it("a French user: bad input answers French field errors, zod's own and ours", async () => {
    const fr = await signedIn('installer@demo.local', 'fr');
    // Ours: a refine message of the schema.
    const timeout = await fr.mutate('user.updatePreferences', { toast_notification_timeout: 12345 });
    expect(timeout.status).toBe(400);
    expect(timeout.error?.data.fieldErrors).toEqual([{ path: 'toast_notification_timeout', message: 'Choisissez une des durées proposées' }]);
    expect((timeout.error?.data as { fieldErrorCodes?: unknown }).fieldErrorCodes).toEqual(['Choose one of the offered timeouts']);
    // zod's own: a wrong type and a too-long text, in zod's French.
    const wrongType = await fr.mutate('user.updatePreferences', { toast_notifications_disabled: 'yes' });
    expect(wrongType.error?.data.fieldErrors).toEqual([
      { path: 'toast_notifications_disabled', message: 'Entrée invalide : booléen attendu, chaîne de caractères reçu' },
    ]);
    expect((wrongType.error?.data as { fieldErrorCodes?: unknown }).fieldErrorCodes).toEqual(['zod.invalid_type']);
    const [company] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = 'Demo Solar Ltd'`);
    const tooLong = await fr.mutate('site.create', { data: { name: 'x'.repeat(5000), lat: 0, long: 0, company_cuid: company.company_cuid } });
    expect(tooLong.status).toBe(400);
    const messages = tooLong.error!.data.fieldErrors!.map((f) => f.message);
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) expect(m).toMatch(/^Trop grand/);
    // A check made by the service after parsing: in French too.
    const su = await signedIn('superuser@demo.local', 'fr');
    const me = (await su.request('GET', '/api/auth/session')).body.user.user_cuid;
    const self = await su.mutate('user.delete', { id: me });
    expect(self.status).toBe(403);
    expect(self.error?.message).toBe('Vous ne pouvez pas vous supprimer vous-même');
    expect((self.error?.data as { messageCode?: string }).messageCode).toBe('You cannot delete yourself');
    // Choosing English again switches the answers at once.
    expect((await fr.mutate('user.updatePreferences', { language: 'en' })).status).toBe(200);
    const back = await fr.mutate('user.updatePreferences', { toast_notification_timeout: 12345 });
    expect(back.error?.data.fieldErrors).toEqual([{ path: 'toast_notification_timeout', message: 'Choose one of the offered timeouts' }]);
  });

  it('no session, Accept-Language fr: sign-in and session errors are French (REST), with their codes', async () => {
    const c = new HttpClient(t.baseUrl, { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' });
    const wrong = await c.login('basic@demo.local', 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({
      code: 'WRONG_CREDENTIALS',
      message: 'Adresse e-mail ou mot de passe incorrect',
      messageCode: 'Wrong email or password',
    });
    const malformed = await c.json('POST', '/api/auth/login', { email: 'not-an-email', password: 'p'.repeat(2000) });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe('Saisissez votre adresse e-mail et votre mot de passe');
    expect(Object.fromEntries(malformed.body.fieldErrors.map((f: { path: string; message: string }) => [f.path, f.message]))).toEqual({
      email: 'Saisissez une adresse e-mail valide',
      password: 'Au plus 1024 caractères',
    });
    const empty = await c.json('POST', '/api/auth/login', { email: 'a@b.example' });
    expect(empty.body.fieldErrors).toEqual([{ path: 'password', message: expect.stringMatching(/^(Saisissez votre mot de passe|Au plus 1024 caractères)$/) }]);
    const session = await c.request('GET', '/api/auth/session');
    expect(session.status).toBe(401);
    expect(session.body).toMatchObject({ code: 'MISSING', message: 'Non connecté' });
    const nowhere = await c.request('GET', '/api/nowhere');
    expect(nowhere.body).toMatchObject({ code: 'NOT_FOUND', message: "Ce chemin d'API n'existe pas" });
    // tRPC without a session: Accept-Language decides there too.
    const unauth = await c.query('system.getList', {});
    expect(unauth.status).toBe(401);
    expect(unauth.error?.message).toBe('Connectez-vous pour continuer');
  });

  it('no session and no French asked: English, unchanged', async () => {
    const c = new HttpClient(t.baseUrl, { 'accept-language': 'sw-KE,de;q=0.8' });
    const wrong = await c.login('basic@demo.local', 'not-the-password');
    expect(wrong.body).toMatchObject({ message: 'Wrong email or password', messageCode: 'Wrong email or password' });
    const unauth = await c.query('system.getList', {});
    expect(unauth.error?.message).toBe('Sign in to continue');
  });

  it("a French user's cookie makes REST errors French even when the browser asks for English", async () => {
    const fr = await signedIn('expert@demo.local', 'fr');
    const nowhere = await fr.request('GET', '/api/nowhere', { headers: { 'accept-language': 'en' } });
    expect(nowhere.body.message).toBe("Ce chemin d'API n'existe pas");
  });
});
