import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';

/** Its own file: one application per Jest worker module registry (passport strategies are process-wide). */
describe('session cookie behind an HTTPS proxy', () => {
  let secureApp: TestApp;
  beforeAll(async () => {
    secureApp = await startTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await secureApp?.close();
  });

  it('marks the cookie Secure when the request came over HTTPS', async () => {
    const res = await new HttpClient(secureApp.baseUrl, { 'x-forwarded-proto': 'https' }).login('basic@demo.local');
    expect(res.status).toBe(200);
    expect(res.setCookies.find((l) => l.startsWith('liuc='))).toMatch(/; Secure/);
  });

  it('and not when it came over plain HTTP', async () => {
    const res = await new HttpClient(secureApp.baseUrl).login('basic@demo.local');
    expect(res.status).toBe(200);
    expect(res.setCookies.find((l) => l.startsWith('liuc='))).not.toMatch(/Secure/);
  });

  it('compares the Origin with the scheme the proxy reports: http:// is foreign to an https:// page', async () => {
    const host = new URL(secureApp.baseUrl).host;
    const https = await new HttpClient(secureApp.baseUrl, { 'x-forwarded-proto': 'https', origin: `https://${host}` }).login('basic@demo.local');
    expect(https.status).toBe(200);
    const downgraded = await new HttpClient(secureApp.baseUrl, { 'x-forwarded-proto': 'https', origin: `http://${host}` }).login('basic@demo.local');
    expect(downgraded.status).toBe(403);
    const plain = await new HttpClient(secureApp.baseUrl, { origin: `https://${host}` }).login('basic@demo.local');
    expect(plain.status).toBe(403);
  });
});
