import { request } from 'node:http';
import superjson from 'superjson';
import { startTestApp, type TestApp } from '../factories/app';
import { PNG_BYTES } from '../factories/files';
import { HttpClient } from '../factories/http-client';

interface RawAnswer {
  status: number;
  text: string;
  body: any;
}

/** Sends the path exactly as written (fetch would normalise `/./` and friends before sending). */
function raw(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: any = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, text, body: parsed });
        });
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** The routes Fastify knows, read from its route tree: [method, path pattern]. */
function registeredRoutes(t: TestApp): [string, string][] {
  const tree = t.app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false });
  const stack: { indent: number; path: string }[] = [];
  const routes: [string, string][] = [];
  for (const line of tree.split('\n')) {
    const m = /^([\s│├└─]*)(\S.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!m || !m[2]) continue;
    const indent = m[1].length;
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    const path = (stack[stack.length - 1]?.path ?? '') + m[2];
    stack.push({ indent, path });
    for (const method of (m[3] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean))
      routes.push([method, path]);
  }
  return routes;
}

/** Spellings of one path that a router may decode or normalise to it. */
function spellings(path: string): string[] {
  const rest = path.slice('/api'.length);
  const segments = path.split('/');
  const last = segments[segments.length - 1];
  const encodedLast = [...segments.slice(0, -1), `%${last.charCodeAt(0).toString(16)}${last.slice(1)}`].join('/');
  return [
    `/%61pi${rest}`,
    `/%61%70%69${rest}`,
    `//api${rest}`,
    `/API${rest}`,
    `/API${rest}?`,
    `/api${rest}?x=1`,
    `/api/.${rest}`,
    `/api/x/..${rest}`,
    `${path}/`,
    `/api%2F${rest.slice(1)}`,
    encodedLast,
  ];
}

describe('requests from another site, however the path is spelled', () => {
  let t: TestApp;
  let admin: HttpClient;
  let expert: HttpClient;
  let companyCuid: string;
  let victimCuid: string;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = new HttpClient(t.baseUrl);
    expert = new HttpClient(t.baseUrl);
    expect((await admin.login('superuser@demo.local')).status).toBe(200);
    const login = await expert.login('expert@demo.local');
    expect(login.status).toBe(200);
    companyCuid = login.body.memberships[0].company_cuid;
    victimCuid = (await t.db.dataSource.query(`SELECT user_cuid FROM "user" WHERE email = 'basic@demo.local'`))[0].user_cuid;
    const created = await admin.mutate('authToken.create', { company_cuid: companyCuid, description: 'guards test' });
    expect(created.status).toBe(200);
    token = created.data.token;
  });
  afterAll(async () => {
    await t?.close();
  });

  const multipart = async () => {
    const form = new FormData();
    form.append('company_cuid', companyCuid);
    form.append('file', new Blob([new Uint8Array(PNG_BYTES)], { type: 'image/png' }), 'x.png');
    const req = new Request('http://x/', { method: 'POST', body: form });
    return { body: Buffer.from(await req.arrayBuffer()), type: req.headers.get('content-type')! };
  };

  /** A request that would change something if it reached its handler, for each unsafe route. */
  const attackFor = async (method: string, pattern: string): Promise<{ path: string; headers: Record<string, string>; body?: Buffer | string }> => {
    const json = { 'content-type': 'application/json' };
    if (pattern === '/api/files') {
      const { body, type } = await multipart();
      return { path: pattern, headers: { 'content-type': type }, body };
    }
    if (pattern === '/api/auth/login') return { path: pattern, headers: json, body: JSON.stringify({ email: 'basic@demo.local', password: 'demo-password' }) };
    if (pattern === '/api/auth/logout') return { path: pattern, headers: json, body: '{}' };
    if (pattern.startsWith('/api/ingest/')) {
      return {
        path: pattern.replace(':controller_id', 'CTRL-1'),
        headers: { ...json, authorization: `Bearer ${token}` },
        body: method === 'POST' ? '{"timestamp":1}' : undefined,
      };
    }
    if (pattern === '/api/trpc/:path') {
      return { path: '/api/trpc/user.deactivate', headers: json, body: JSON.stringify(superjson.serialize({ user_cuid: victimCuid })) };
    }
    return { path: pattern.replace(/:(\w+)/g, 'x'), headers: json, body: '{}' };
  };

  const state = async () => ({
    files: Number((await t.db.dataSource.query(`SELECT count(*)::int AS n FROM hosted_file`))[0].n),
    revoked: Number((await t.db.dataSource.query(`SELECT count(*)::int AS n FROM revoked_session`))[0].n),
    inactive: (await t.db.dataSource.query(`SELECT inactive FROM "user" WHERE user_cuid = $1`, [victimCuid]))[0].inactive,
  });

  it('every unsafe route refuses a foreign Origin under every spelling of its path (403 or 404, nothing written)', async () => {
    const unsafe = registeredRoutes(t).filter(([m]) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(m));
    const patterns = new Set(unsafe.map(([, p]) => p));
    // The enumeration found the routes that matter (a broken parser would make this test vacuous).
    for (const p of ['/api/auth/login', '/api/auth/logout', '/api/files', '/api/trpc/:path', '/api/ingest/:controller_id/telemetry'])
      expect(patterns).toContain(p);
    const before = await state();
    const reached: string[] = [];
    for (const [method, pattern] of unsafe) {
      const attack = await attackFor(method, pattern);
      for (const path of [attack.path, ...spellings(attack.path)]) {
        for (const origin of ['https://evil.example', 'null']) {
          // The superuser's cookie would make user.deactivate succeed, the Expert's an upload, if either got through.
          const cookie = pattern === '/api/files' ? expert.cookieHeader() : admin.cookieHeader();
          const res = await raw(t.baseUrl, method, path, { ...attack.headers, cookie, origin }, attack.body);
          if (![403, 404].includes(res.status)) reached.push(`${method} ${path} (${origin}) → ${res.status}`);
        }
      }
    }
    expect(reached).toEqual([]);
    expect(await state()).toEqual(before);
    expect((await admin.request('GET', '/api/auth/session')).status).toBe(200);
  });

  it('a same-site page on another subdomain cannot sign a user out through an encoded path', async () => {
    const victim = new HttpClient(t.baseUrl);
    await victim.login('installer@demo.local');
    const res = await raw(
      t.baseUrl,
      'POST',
      '/%61pi/auth/logout',
      { cookie: victim.cookieHeader(), origin: 'http://blog.127.0.0.1', 'content-type': 'application/json' },
      '{}',
    );
    expect(res.status).toBe(403);
    expect((await victim.request('GET', '/api/auth/session')).status).toBe(200);
  });

  it('the Origin must match the scheme as well as host and port', async () => {
    const port = new URL(t.baseUrl).port;
    const https = await raw(
      t.baseUrl,
      'POST',
      '/api/auth/login',
      { origin: `https://127.0.0.1:${port}`, 'content-type': 'application/json' },
      JSON.stringify({ email: 'basic@demo.local', password: 'demo-password' }),
    );
    expect(https.status).toBe(403);
    const otherPort = await raw(
      t.baseUrl,
      'POST',
      '/api/auth/login',
      { origin: `http://127.0.0.1:${Number(port) + 1}`, 'content-type': 'application/json' },
      JSON.stringify({ email: 'basic@demo.local', password: 'demo-password' }),
    );
    expect(otherPort.status).toBe(403);
    const same = await raw(
      t.baseUrl,
      'POST',
      '/api/auth/login',
      { origin: t.baseUrl, 'content-type': 'application/json' },
      JSON.stringify({ email: 'basic@demo.local', password: 'demo-password' }),
    );
    expect(same.status).toBe(200);
  });

  it('a same-origin request still reaches every guarded handler (the guard is not a blanket refusal)', async () => {
    const form = await multipart();
    const res = await raw(t.baseUrl, 'POST', '/api/files', { origin: t.baseUrl, cookie: expert.cookieHeader(), 'content-type': form.type }, form.body);
    expect(res.status).toBe(201);
  });
});

describe('login and the REST routes take JSON only, and no body shape makes them fail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const JSON_VALUES = [
    '[1,2]',
    '123',
    'true',
    'false',
    'null',
    '"text"',
    '{}',
    '[]',
    '{"email":123,"password":[]}',
    '{"email":{"a":1},"password":{"b":2}}',
    '{"email":"basic@demo.local","password":null}',
    '{"__proto__":{"x":1}}',
    '1e400',
    '"\\u0000"',
  ];

  it('POST /api/auth/login answers 400 (never 500) for a JSON body that is not an object of two strings', async () => {
    for (const body of JSON_VALUES) {
      const res = await raw(t.baseUrl, 'POST', '/api/auth/login', { 'content-type': 'application/json' }, body);
      expect([body, res.status]).toEqual([body, 400]);
      expect(res.text).not.toMatch(/at .*\.js|TypeError|stack/);
    }
  });

  it('login refuses forms and other content types with 415 (JSON only), even with the right password', async () => {
    const form = 'email=basic%40demo.local&password=demo-password';
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', form],
      ['text/plain', JSON.stringify({ email: 'basic@demo.local', password: 'demo-password' })],
      ['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="email"\r\n\r\nbasic@demo.local\r\n--x--\r\n`],
      ['application/xml', '<a/>'],
    ]) {
      const res = await raw(t.baseUrl, 'POST', '/api/auth/login', { 'content-type': type }, body);
      expect([type, res.status]).toEqual([type, 415]);
      expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('every REST route under /api/auth, /api/files and /api/ingest: bodies of every JSON type and wrong content types never answer 5xx', async () => {
    const c = new HttpClient(t.baseUrl);
    await c.login('expert@demo.local');
    const routes: [string, string][] = [
      ['POST', '/api/auth/login'],
      ['POST', '/api/auth/logout'],
      ['GET', '/api/auth/session'],
      ['GET', '/api/auth/token'],
      ['POST', '/api/files'],
      ['GET', '/api/files/x'],
      ['POST', '/api/ingest/CTRL-1/telemetry'],
      ['POST', '/api/ingest/CTRL-1/states'],
      ['POST', '/api/ingest/CTRL-1/heartbeat'],
    ];
    const bodies: [string, string][] = [
      ...JSON_VALUES.map((v) => ['application/json', v] as [string, string]),
      ['application/json', '{"broken":'],
      ['application/json', ''],
      ['application/x-www-form-urlencoded', 'a=1&b=2'],
      ['text/plain', 'hello'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'],
      ['multipart/form-data', 'garbage'],
      ['application/octet-stream', '\u0000\u0001'],
      ['application/xml', '<a/>'],
      ['', 'x'],
    ];
    const failures: string[] = [];
    for (const [method, path] of routes) {
      for (const [type, body] of bodies) {
        for (const withCookie of [false, true]) {
          const headers: Record<string, string> = { ...(type ? { 'content-type': type } : {}), ...(withCookie ? { cookie: c.cookieHeader() } : {}) };
          const res = await raw(t.baseUrl, method, path, headers, method === 'GET' ? undefined : body);
          if (res.status >= 500) failures.push(`${method} ${path} ${type} ${JSON.stringify(body)} → ${res.status} ${res.text.slice(0, 100)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
