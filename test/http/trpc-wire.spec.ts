import superjson from 'superjson';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { TrpcService } from '../../server/src/api/trpc.module';
import { declaredProcedures, proceduresOf } from '../../server/src/api/procedure-permissions';

describe('tRPC at /api/trpc: wire format and the §8 status table', () => {
  let t: TestApp;
  let su: HttpClient;
  let basic: HttpClient;
  beforeAll(async () => {
    t = await startTestApp();
    su = new HttpClient(t.baseUrl);
    basic = new HttpClient(t.baseUrl);
    expect((await su.login('superuser@demo.local')).status).toBe(200);
    expect((await basic.login('basic@demo.local')).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('role.all answers the four roles in the superjson envelope (the README example, verbatim)', async () => {
    const input = encodeURIComponent(JSON.stringify({ 0: { json: null } }));
    const res = await su.request('GET', `/api/trpc/role.all?batch=1&input=${input}`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    const roles = superjson.deserialize<{ name: string; level: number }[]>(res.body[0].result.data);
    expect(roles.map((r) => [r.level, r.name])).toEqual([
      [0, 'Superuser'],
      [1, 'SystemInstaller'],
      [2, 'Expert'],
      [3, 'Basic'],
    ]);
    const anonymous = await new HttpClient(t.baseUrl).request('GET', `/api/trpc/role.all?batch=1&input=${input}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body[0].error.json.data.code).toBe('UNAUTHORIZED');
  });

  it('mounts exactly the procedures of the permission snapshot (built from the router declarations), with their types and permissions', () => {
    const mounted = proceduresOf(t.app.get(TrpcService).appRouter);
    expect(mounted.size).toBeGreaterThan(100);
    expect(Object.fromEntries(declaredProcedures())).toEqual(Object.fromEntries(mounted));
  });

  it('batches two procedures in one GET with comma-joined names', async () => {
    const input = { 0: { json: null }, 1: superjson.serialize({ email: 'basic@demo.local' }) };
    const res = await su.request('GET', `/api/trpc/role.all,user.findOne?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(superjson.deserialize<unknown[]>(res.body[0].result.data)).toHaveLength(4);
    expect(superjson.deserialize(res.body[1].result.data)).toMatchObject({ email: 'basic@demo.local', inactive: false });
  });

  it('batches many procedures whose joined names are longer than 100 characters (an edit page reloading)', async () => {
    const names = [
      'role.all',
      'role.getList',
      'entityTypeLogParameterAssignment.getList',
      'entityCategoryLogParameterAssignment.getList',
      'logParameter.getList',
    ];
    const list = superjson.serialize({ pagination: { page: 1, perPage: 5 }, filter: {} });
    const input = { 0: { json: null }, 1: list, 2: list, 3: list, 4: list };
    expect(names.join(',').length).toBeGreaterThan(100);
    const res = await su.request('GET', `/api/trpc/${names.join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(5);
  });

  it('a batch mixing success and failure answers 207 with each result in place', async () => {
    const input = { 0: { json: null }, 1: superjson.serialize({ email: 'missing@demo.local' }) };
    const res = await su.request('GET', `/api/trpc/role.all,user.findOne?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`);
    expect(res.status).toBe(207);
    expect(res.body[0].result).toBeDefined();
    expect(res.body[1].error.json.data.code).toBe('NOT_FOUND');
  });

  it('keeps Dates as Dates through superjson (mutation body and answer)', async () => {
    const expires = new Date(Date.now() + 86_400_000);
    const session = (await su.request('GET', '/api/auth/session')).body;
    const res = await su.mutate('authToken.create', {
      company_cuid: session.memberships[0].company_cuid,
      description: 'Gateway at the clinic',
      expires_at: expires,
    });
    expect(res.status).toBe(200);
    expect(res.data.expires_at).toBeInstanceOf(Date);
    expect(res.data.expires_at.getTime()).toBe(expires.getTime());
    expect(res.data.created_at).toBeInstanceOf(Date);
    expect((res.body as any).result.data.meta.values.expires_at).toEqual(['Date']);
  });

  describe('codes to HTTP statuses', () => {
    it('400 BAD_REQUEST with field errors for invalid input', async () => {
      const res = await su.query('user.findOne', { email: 'not an email' });
      expect(res.status).toBe(400);
      expect(res.error?.data.code).toBe('BAD_REQUEST');
      expect(res.error?.data.fieldErrors?.[0].path).toBe('email');
    });

    it('400 PARSE_ERROR for input that is not JSON', async () => {
      const res = await su.request('GET', '/api/trpc/user.findOne?input=%7Bnot-json');
      expect(res.status).toBe(400);
      expect(res.body.error.json.data.code).toBe('PARSE_ERROR');
    });

    it('400 with one plain message when superjson cannot read the input (malformed meta), at every parse stage: GET, POST, batches; never a JavaScript message', async () => {
      // each one makes superjson throw while reading the input (before any procedure runs)
      const malformed: unknown[] = [
        { json: { a: 1 }, meta: { values: { a: ['custom', 'nope'] } } },
        { json: { a: 1 }, meta: { values: { a: [['class', 'Nope']] } } },
        { json: { a: 1 }, meta: { referentialEqualities: { '__proto__.x': ['a'] } } },
        { json: { a: { b: 1 } }, meta: { referentialEqualities: { a: ['constructor.prototype.polluted'] } } },
        { json: { a: 1 }, meta: { values: { '__proto__.polluted': ['undefined'] } } },
      ];
      const plain = /^The request body is not valid$/;
      const javascript =
        /is not allowed as a property|call stack|Cannot read|Cannot set|is not a function|undefined|prototype|TypeError|RangeError|Unsupported/;
      const answers: { how: string; status: number; message: string; text: string }[] = [];
      for (const [i, input] of malformed.entries()) {
        const q = encodeURIComponent(JSON.stringify(input));
        const get = await su.request('GET', `/api/trpc/user.findOne?input=${q}`);
        answers.push({ how: `GET #${i}`, status: get.status, message: get.body?.error?.json?.message, text: get.text });
        const post = await su.request('POST', '/api/trpc/authToken.create', { body: JSON.stringify(input), headers: { 'content-type': 'application/json' } });
        answers.push({ how: `POST #${i}`, status: post.status, message: post.body?.error?.json?.message, text: post.text });
        const batch = await su.request(
          'GET',
          `/api/trpc/role.all,user.findOne?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { json: null }, 1: input }))}`,
        );
        const item = Array.isArray(batch.body) ? batch.body[1] : batch.body;
        answers.push({
          how: `batch #${i}`,
          status: item?.error?.json?.data?.httpStatus ?? batch.status,
          message: item?.error?.json?.message,
          text: batch.text,
        });
      }
      for (const a of answers) {
        expect({ how: a.how, status: a.status }).toEqual({ how: a.how, status: 400 });
        expect({ how: a.how, message: a.message }).toEqual({ how: a.how, message: expect.stringMatching(plain) });
        expect({ how: a.how, leak: a.text.match(javascript)?.[0] }).toEqual({ how: a.how, leak: undefined });
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('401 UNAUTHORIZED without a session', async () => {
      const res = await new HttpClient(t.baseUrl).query('user.findOne', { email: 'basic@demo.local' });
      expect(res.status).toBe(401);
    });

    it('403 FORBIDDEN when the role level is too low', async () => {
      const res = await basic.query('authToken.list');
      expect(res.status).toBe(403);
      expect(res.error?.data.code).toBe('FORBIDDEN');
    });

    it('404 NOT_FOUND for an unknown procedure and a missing record', async () => {
      expect((await su.query('nothing.here')).status).toBe(404);
      expect((await su.query('user.findOne', { email: 'missing@demo.local' })).status).toBe(404);
    });

    it('405 METHOD_NOT_SUPPORTED for a query sent as POST and a mutation sent as GET', async () => {
      expect((await su.mutate('role.all')).status).toBe(405);
      expect((await su.query('authToken.revoke', { token_cuid: 'x' })).status).toBe(405);
    });

    it('415 for bodies that are not JSON (multipart and URL-encoded forms), never a 500', async () => {
      const boundary = '----portal-test';
      const multipart = `--${boundary}\r\ncontent-disposition: form-data; name="0"\r\n\r\n{"json":{"company_cuid":"x","description":"y"}}\r\n--${boundary}--\r\n`;
      const before = await t.db.dataSource.query('SELECT count(*)::int AS n FROM auth_token');
      for (const [type, body] of [
        [`multipart/form-data; boundary=${boundary}`, multipart],
        ['application/x-www-form-urlencoded', 'a=1'],
        ['text/plain', '{"json":{}}'],
      ]) {
        const res = await su.request('POST', '/api/trpc/authToken.create', { body, headers: { 'content-type': type } });
        expect({ type, status: res.status }).toEqual({ type, status: 415 });
        expect(res.text).not.toMatch(/stack|at \w+ \(/);
      }
      expect(await t.db.dataSource.query('SELECT count(*)::int AS n FROM auth_token')).toEqual(before);
      // JSON with a charset parameter is still JSON.
      const ok = await su.request('POST', '/api/trpc/authToken.create', {
        body: '{"json":{}}',
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(ok.status).toBe(400);
    });

    it('413 PAYLOAD_TOO_LARGE for a body over 1 MiB', async () => {
      const res = await su.mutate('authToken.create', { company_cuid: 'x', description: 'x'.repeat(1_100_000) });
      expect(res.status).toBe(413);
    });

    it('429 TOO_MANY_REQUESTS after repeated failed logins, with Retry-After', async () => {
      const c = new HttpClient(t.baseUrl);
      const statuses: number[] = [];
      for (let i = 0; i < t.config.LOGIN_MAX_ATTEMPTS_PER_ACCOUNT + 1; i++) {
        statuses.push((await c.login('other@demo.local', `wrong-${i}`)).status);
      }
      expect(statuses.slice(0, t.config.LOGIN_MAX_ATTEMPTS_PER_ACCOUNT).every((s) => s === 401)).toBe(true);
      const last = await c.login('other@demo.local');
      expect(last.status).toBe(429);
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last.body.message).toMatch(/Too many/);
    });

    it('never answers with a stack trace or SQL', async () => {
      const answers = [
        await su.query('user.findOne', { email: "x'; DROP TABLE role; --@x.io" }),
        await su.mutate('companyMembership.update', { membership_cuid: 'nope', role_cuid: 'nope' }),
        await su.mutate('authToken.create', { company_cuid: "'; select 1", description: 'x' }),
      ];
      for (const a of answers) {
        expect(a.status).toBeGreaterThanOrEqual(400);
        expect(a.status).toBeLessThan(500);
        expect(a.text).not.toMatch(/SELECT|INSERT|UPDATE|\.ts:\d+|\.js:\d+|QueryFailedError/);
      }
    });
  });
});
