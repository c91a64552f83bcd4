import { startTestApp, type TestApp } from '../factories/app';
import { parsePrometheus } from '../factories/prometheus';

/** With METRICS_TOKEN, /metrics needs `Authorization: Bearer <token>` from anywhere, and nothing is served without it. */
describe('/metrics with METRICS_TOKEN', () => {
  const TOKEN = 'scrape-token-0123456789abcdef';
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN: TOKEN, INSTANCE_NAME: 'token-a' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const scrape = (headers: Record<string, string> = {}) => fetch(`${t.baseUrl}/metrics`, { headers });

  it('401 without the token, with a wrong one, a prefix of it, or another scheme; nothing of the metrics in the answer', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer wrong' },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Basic ${TOKEN}` },
    ]) {
      const res = await scrape(headers);
      expect([headers, res.status]).toEqual([headers, 401]);
      const body = await res.text();
      expect(JSON.parse(body)).toMatchObject({ code: 'UNAUTHORIZED', message: 'Send the metrics token: Authorization: Bearer <token>' });
      expect(body).not.toMatch(/portal_|process_/);
    }
  });

  it('200 with the token, also through a proxy (forwarded headers do not matter then)', async () => {
    const res = await scrape({ authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.9' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const samples = parsePrometheus(await res.text());
    expect(samples.some((s) => s.name === 'portal_ingest_rows_total' && s.labels.instance === 'token-a')).toBe(true);
  });
});
