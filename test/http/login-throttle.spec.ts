import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';

/**
 * The brute-force brake over HTTP. Client addresses come from X-Forwarded-For (TRUST_PROXY), so
 * one test can play an attacker and the account's owner from different addresses.
 */
describe('login brake: concurrent guesses and the owner of a targeted account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      TRUST_PROXY: 'true',
      // No growing delays here: this file checks the counts, the unit test checks the delays.
      LOGIN_FREE_ATTEMPTS: '10',
      LOGIN_MAX_ATTEMPTS_PER_ACCOUNT: '10',
      LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '50',
      LOGIN_MAX_ATTEMPTS_PER_ACCOUNT_TOTAL: '30',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const from = (address: string) => new HttpClient(t.baseUrl, { 'x-forwarded-for': address });

  it('40 concurrent wrong guesses: at most the limit (10) reach the password check, the rest answer 429', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => from('203.0.113.1').login('basic@demo.local', `guess-${i}`)));
    const statuses = answers.map((a) => a.status);
    const verified = statuses.filter((s) => s === 401).length;
    const braked = statuses.filter((s) => s === 429).length;
    expect(verified + braked).toBe(40);
    expect(verified).toBeLessThanOrEqual(10);
    expect(braked).toBeGreaterThanOrEqual(30);
    const refused = answers.find((a) => a.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Still braked for that address, even with the right password.
    expect((await from('203.0.113.1').login('basic@demo.local')).status).toBe(429);
  });

  it("the owner signs in from an address with no failures while the attacker's address stays braked", async () => {
    const owner = await from('198.51.100.7').login('basic@demo.local');
    expect(owner.status).toBe(200);
    expect((await from('203.0.113.1').login('basic@demo.local', 'another-guess')).status).toBe(429);
  });

  it("a success clears that address's failures for the account", async () => {
    const c = () => from('198.51.100.8');
    for (let i = 0; i < 9; i++) expect((await c().login('installer@demo.local', `wrong-${i}`)).status).toBe(401);
    expect((await c().login('installer@demo.local')).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await c().login('installer@demo.local', `wrong-again-${i}`)).status).toBe(401);
  });

  it('a client cannot pick its own address: only the hop the proxy added counts (TRUST_PROXY_HOPS)', async () => {
    const answers = [];
    for (let i = 0; i < 14; i++) {
      // The attacker writes a new address each time; the proxy appends the one it saw.
      answers.push(await new HttpClient(t.baseUrl, { 'x-forwarded-for': `10.9.${i}.1, 203.0.113.77` }).login('other@demo.local', `spoof-${i}`));
    }
    expect(answers.filter((a) => a.status === 401).length).toBeLessThanOrEqual(10);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(4);
  });

  it('guesses spread over many addresses still meet a cap per account (the larger total limit)', async () => {
    const addresses = ['192.0.2.1', '192.0.2.2', '192.0.2.3'];
    const answers = await Promise.all(addresses.flatMap((a) => Array.from({ length: 10 }, (_, i) => from(a).login('expert@demo.local', `spread-${i}`))));
    expect(answers.filter((a) => a.status === 401).length).toBeLessThanOrEqual(30);
    // The total for the account is used up: a fresh address is braked too, until the window passes.
    expect((await from('192.0.2.99').login('expert@demo.local')).status).toBe(429);
    // Other accounts are untouched.
    expect((await from('192.0.2.99').login('superuser@demo.local')).status).toBe(200);
  });
});
