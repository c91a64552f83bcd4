import { request } from 'node:http';
import { startTestApp, type TestApp } from '../factories/app';

/** GET with an explicit Host header (fetch may not set Host). */
function get(baseUrl: string, path: string, host: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const u = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ hostname: u.hostname, port: u.port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

const metaOf = (html: string, property: string) => new RegExp(`<meta property="${property.replace(/[.:]/g, '\\$&')}" content="([^"]*)"`).exec(html)?.[1];

describe('per-domain branding in the HTML head (spec §2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('writes title, favicon and sharing metadata of the matched root domain into the page', async () => {
    const page = await get(t.baseUrl, '/systems/42', 'localhost:3000');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<title>Demo Solar Portal</title>');
    expect(page.body).toContain('<link rel="icon" href="/brand/favicon.svg" />');
    expect(metaOf(page.body, 'og:title')).toBe('Demo Solar Portal');
    expect(metaOf(page.body, 'og:url')).toBe('http://localhost:3000/systems/42');
    expect(metaOf(page.body, 'og:description')).toMatch(/Demo Solar/);
    expect(metaOf(page.body, 'og:image')).toBe('http://localhost:3000/brand/og-default.png');
    expect(metaOf(page.body, 'og:image:width')).toBe('1200');
    expect(metaOf(page.body, 'og:image:height')).toBe('630');
    expect(metaOf(page.body, 'og:image:type')).toBe('image/png');
    expect(metaOf(page.body, 'og:type')).toBe('article');
  });

  it('gives another host its own brand, and an unknown host the default "<owner> Portal"', async () => {
    const other = await get(t.baseUrl, '/', '127.0.0.1');
    expect(other.body).toContain('<title>Other Energy Portal</title>');
    expect(other.body).toContain('href="/brand/favicon-other.svg"');
    const unknown = await get(t.baseUrl, '/auth/login', 'portal.unknown.example');
    expect(unknown.body).toContain(`<title>${t.config.BRAND_OWNER_NAME} Portal</title>`);
  });

  it('a Domain row overrides its root domain field by field; a parent root domain matches sub-hosts', async () => {
    await t.db.dataSource.query(
      `INSERT INTO root_domain (name, root_domain_data) VALUES ('sunny.example', '{"owner_name":"Sunny Grids","colors":{"primary":"#112233","secondary":"#445566"}}')`,
    );
    await t.db.dataSource.query(
      `INSERT INTO domain (name, sub_domain_name, root_domain_name, domain_data) VALUES ('kenya.sunny.example', 'kenya', 'sunny.example', '{"title":"Sunny Grids Kenya"}')`,
    );
    const sub = await get(t.baseUrl, '/', 'kenya.sunny.example');
    expect(sub.body).toContain('<title>Sunny Grids Kenya</title>');
    const brand = JSON.parse((await get(t.baseUrl, '/api/branding', 'kenya.sunny.example')).body);
    expect(brand).toMatchObject({ owner_name: 'Sunny Grids', title: 'Sunny Grids Kenya', colors: { primary: '#112233' } });
    const parent = JSON.parse((await get(t.baseUrl, '/api/branding', 'plant7.sunny.example')).body);
    expect(parent).toMatchObject({ owner_name: 'Sunny Grids', title: 'Sunny Grids Portal' });
  });

  it('keeps hostile branding text inert and ignores invalid fields', async () => {
    await t.db.dataSource.query(`INSERT INTO root_domain (name, root_domain_data) VALUES ('evil.example', $1)`, [
      JSON.stringify({ owner_name: '</script><script>alert(1)</script>', favicon_url: 'javascript:alert(1)' }),
    ]);
    const page = await get(t.baseUrl, '/', 'evil.example');
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body).not.toContain('javascript:alert');
    expect(page.body).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; Portal');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    // Company logos and brand images are https URLs.
    expect(csp).toMatch(/img-src [^;]*https:/);
  });

  it('serves the default brand assets and keeps unknown API paths as JSON 404s', async () => {
    const png = await fetch(`${t.baseUrl}/brand/og-default.png`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await png.arrayBuffer());
    expect(bytes.readUInt32BE(16)).toBe(1200); // IHDR width
    expect(bytes.readUInt32BE(20)).toBe(630); // IHDR height
    const missing = await fetch(`${t.baseUrl}/api/no-such-thing`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ code: 'NOT_FOUND', message: 'No such API path', messageCode: 'No such API path' });
  });
});
