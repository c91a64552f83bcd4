import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DEMO_COMPANY_NAME, DEMO_SYSTEMS, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { FilesService } from '../../server/src/files/files.service';
import { startTestApp, type TestApp } from '../factories/app';
import { PDF_BYTES, PNG_BYTES, rawGet, SVG_TEXT, upload } from '../factories/files';
import { HttpClient } from '../factories/http-client';
import { addMember } from '../factories/users';

const MAX = 256 * 1024;

/** Every file under a folder, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

describe('hosted files on disk: upload, download, records (PostgreSQL)', () => {
  let t: TestApp;
  let dir: string;
  let demo: string;
  let other: string;
  let farm: string;
  let workshop: string;
  const as: Record<string, HttpClient> = {};

  const rows = async (): Promise<number> => Number((await t.db.dataSource.query(`SELECT count(*)::int AS n FROM hosted_file`))[0].n);

  /** Asserts that a refused upload left neither a row nor an object behind. */
  const expectNothingStored = async (work: () => Promise<unknown>) => {
    const before = { rows: await rows(), files: await filesUnder(dir) };
    await work();
    expect({ rows: await rows(), files: await filesUnder(dir) }).toEqual(before);
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portal-files-'));
    // No timed sweep: the test sweeps when it wants to.
    t = await startTestApp({ FILES_DIR: dir, FILES_MAX_BYTES: String(MAX), FILES_SWEEP_SECONDS: '0' });
    const ds = t.db.dataSource;
    const company = async (name: string) => (await ds.query(`SELECT company_cuid FROM company WHERE name = $1`, [name]))[0].company_cuid as string;
    const system = async (name: string) => (await ds.query(`SELECT system_cuid FROM system WHERE name = $1`, [name]))[0].system_cuid as string;
    demo = await company(DEMO_COMPANY_NAME);
    other = await company(OTHER_COMPANY_NAME);
    farm = await system(DEMO_SYSTEMS.farm);
    workshop = await system(DEMO_SYSTEMS.workshop);
    await addMember(ds, 'other-expert@files.test', OTHER_COMPANY_NAME, 2);
    for (const [who, email] of [
      ['superuser', 'superuser@demo.local'],
      ['installer', 'installer@demo.local'],
      ['expert', 'expert@demo.local'],
      ['basic', 'basic@demo.local'],
      ['other', 'other@demo.local'],
      ['otherExpert', 'other-expert@files.test'],
    ] as const) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(email)).status).toBe(200);
    }
    as.anonymous = new HttpClient(t.baseUrl);
  });

  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('round trip: an Expert uploads a PNG to their company; it is on disk under a server-made key and downloads byte for byte', async () => {
    const up = await upload(as.expert, { company_cuid: demo }, { bytes: PNG_BYTES, type: 'image/png', name: 'site photo.png' });
    expect(up.status).toBe(201);
    const file = up.body.data;
    expect(file).toMatchObject({
      contentType: 'image/png',
      company_cuid: demo,
      system_cuid: null,
      rootDomainName: null,
      domainName: null,
      size: PNG_BYTES.length,
      fileName: 'site photo.png',
      url: `/api/files/${file.id}`,
    });
    expect(file.objectKey).toMatch(/^[a-z0-9]{2}\/[a-z0-9]+$/);
    expect(file.objectKey).toContain(file.id);
    expect(await readFile(join(dir, file.objectKey))).toEqual(PNG_BYTES);

    const got = await rawGet(t.baseUrl, file.url, { cookie: as.expert.cookieHeader() });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(PNG_BYTES);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['content-disposition']).toBe(`inline; filename="site photo.png"; filename*=UTF-8''site%20photo.png`);
    expect(got.headers['cache-control']).toBe('private, no-cache');
    expect(got.headers['content-length']).toBe(String(PNG_BYTES.length));
    const again = await rawGet(t.baseUrl, file.url, { cookie: as.expert.cookieHeader(), 'if-none-match': String(got.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);

    // The record through tRPC (react-admin shapes), for a Basic member of the company too.
    const one = await as.basic.query('hostedFile.getOne', { id: file.id });
    expect(one.data).toEqual({ data: { ...file, created_at: expect.any(Date) } });
    const list = await as.basic.query('hostedFile.getList', { pagination: { page: 1, perPage: 50 }, filter: { company_cuid: demo } });
    expect(list.data.data.map((f: { id: string }) => f.id)).toContain(file.id);
    expect(list.data.total).toBe(list.data.data.length);
  });

  it('a PDF opens inline; CSV and JSON download as attachments with a charset; an SVG downloads, sandboxed', async () => {
    const pdf = await upload(as.expert, { company_cuid: demo }, { bytes: PDF_BYTES, type: 'application/pdf', name: 'manual.pdf' });
    const csv = await upload(as.expert, { company_cuid: demo }, { bytes: 'a,b\n1,2\n', type: 'text/csv', name: 'data.csv' });
    const json = await upload(as.expert, { company_cuid: demo }, { bytes: '{"a":1}', type: 'application/json', name: 'é.json' });
    const svg = await upload(as.expert, { company_cuid: demo }, { bytes: SVG_TEXT, type: 'image/svg+xml', name: 'logo.svg' });
    expect([pdf.status, csv.status, json.status, svg.status]).toEqual([201, 201, 201, 201]);
    const get = (f: { url: string }) => rawGet(t.baseUrl, f.url, { cookie: as.expert.cookieHeader() });

    const p = await get(pdf.body.data);
    expect([p.headers['content-type'], String(p.headers['content-disposition']).split(';')[0]]).toEqual(['application/pdf', 'inline']);
    const c = await get(csv.body.data);
    expect([c.headers['content-type'], String(c.headers['content-disposition']).split(';')[0]]).toEqual(['text/csv; charset=utf-8', 'attachment']);
    expect(c.body.toString()).toBe('a,b\n1,2\n');
    const j = await get(json.body.data);
    expect(j.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(j.headers['content-disposition']).toBe(`attachment; filename="_.json"; filename*=UTF-8''%C3%A9.json`);
    const s = await get(svg.body.data);
    expect(s.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(String(s.headers['content-disposition'])).toMatch(/^attachment;/);
    expect(s.headers['content-security-policy']).toMatch(/sandbox/);
    expect(s.headers['content-security-policy']).toMatch(/default-src 'none'/);
  });

  it('a file of a system shared with another company is seen there; a file of an unshared system or of the company is not', async () => {
    const shared = await upload(as.expert, { system_cuid: workshop }, { bytes: PNG_BYTES, type: 'image/png', name: 'workshop.png' });
    expect(shared.status).toBe(201);
    expect(shared.body.data).toMatchObject({ company_cuid: demo, system_cuid: workshop });
    const privateOne = await upload(as.expert, { company_cuid: demo, system_cuid: farm }, { bytes: PNG_BYTES, type: 'image/png' });
    expect(privateOne.status).toBe(201);

    const seen = await as.other.query('hostedFile.getList', { pagination: { page: 1, perPage: 100 } });
    const ids = seen.data.data.map((f: { id: string }) => f.id);
    expect(ids).toContain(shared.body.data.id);
    expect(ids).not.toContain(privateOne.body.data.id);
    expect(seen.data.data.every((f: { company_cuid: string; system_cuid: string }) => f.company_cuid === other || f.system_cuid === workshop)).toBe(true);
    expect((await rawGet(t.baseUrl, shared.body.data.url, { cookie: as.other.cookieHeader() })).status).toBe(200);
    const byReference = await as.other.query('hostedFile.getManyReference', { target: 'system_cuid', id: farm, pagination: { page: 1, perPage: 10 } });
    expect(byReference.data).toEqual({ data: [], total: 0 });
  });

  it('a user of another company gets 404 on download, NOT_FOUND on getOne/delete, nothing in lists, and the object stays', async () => {
    const up = await upload(as.expert, { company_cuid: demo }, { bytes: PNG_BYTES, type: 'image/png', name: 'private.png' });
    const file = up.body.data;
    const foreign = await rawGet(t.baseUrl, file.url, { cookie: as.otherExpert.cookieHeader() });
    expect(foreign.status).toBe(404);
    expect(JSON.parse(foreign.body.toString())).toMatchObject({ code: 'NOT_FOUND' });
    expect(foreign.body.includes(PNG_BYTES)).toBe(false);
    expect((await as.otherExpert.query('hostedFile.getOne', { id: file.id })).error?.data.code).toBe('NOT_FOUND');
    expect((await as.otherExpert.query('hostedFile.getMany', { ids: [file.id] })).data).toEqual({ data: [] });
    const list = await as.otherExpert.query('hostedFile.getList', { pagination: { page: 1, perPage: 100 }, filter: { company_cuid: demo } });
    // Only what the shared workshop system brings along; never this file.
    expect(list.data.data.map((f: { id: string }) => f.id)).not.toContain(file.id);
    expect(list.data.data.every((f: { system_cuid: string | null }) => f.system_cuid === workshop)).toBe(true);
    expect((await as.otherExpert.query('hostedFile.access', { ids: [file.id] })).data).toEqual({ data: {} });
    // Other's admin-level user may delete files (level 1) but not this one: it does not exist for them.
    await addMember(t.db.dataSource, 'other-installer@files.test', OTHER_COMPANY_NAME, 1);
    const otherInstaller = new HttpClient(t.baseUrl);
    await otherInstaller.login('other-installer@files.test');
    expect((await otherInstaller.mutate('hostedFile.delete', { id: file.id })).error?.data.code).toBe('NOT_FOUND');
    expect((await otherInstaller.mutate('hostedFile.deleteMany', { ids: [file.id] })).error?.data.code).toBe('NOT_FOUND');
    expect(await readFile(join(dir, file.objectKey))).toEqual(PNG_BYTES);
    expect((await as.expert.query('hostedFile.getOne', { id: file.id })).data?.data.id).toBe(file.id);
    // Unknown ids answer alike; without a session the answer is 401 whether or not the id exists.
    expect((await rawGet(t.baseUrl, '/api/files/zzzzzzzzzzzzzzzzzzzzzzzz', { cookie: as.expert.cookieHeader() })).status).toBe(404);
    expect((await rawGet(t.baseUrl, file.url)).status).toBe(401);
    expect((await rawGet(t.baseUrl, '/api/files/zzzzzzzzzzzzzzzzzzzzzzzz')).status).toBe(401);
  });

  it('refuses uploads that are not allowed, storing nothing: no session, Basic user, foreign company or system, missing company', async () => {
    const png = { bytes: PNG_BYTES, type: 'image/png', name: 'x.png' };
    await expectNothingStored(async () => {
      expect((await upload(as.anonymous, { company_cuid: demo }, png)).status).toBe(401);
      const basic = await upload(as.basic, { company_cuid: demo }, png);
      expect(basic.status).toBe(403);
      expect(basic.body.code).toBe('FORBIDDEN');
      // An Expert of the other company has no membership in the demo company.
      expect((await upload(as.otherExpert, { company_cuid: demo }, png)).status).toBe(404);
      expect((await upload(as.expert, { company_cuid: other }, png)).status).toBe(404);
      expect((await upload(as.otherExpert, { company_cuid: other, system_cuid: farm }, png)).status).toBe(404);
      expect((await upload(as.expert, { company_cuid: demo, system_cuid: 'nosuchsystem' }, png)).status).toBe(404);
      const missing = await upload(as.expert, {}, png);
      expect(missing.status).toBe(400);
      expect(missing.body.fieldErrors).toEqual([{ path: 'company_cuid', message: 'Required' }]);
      const unknown = await upload(as.expert, { company_cuid: demo, objectKey: '../../etc/passwd' }, png);
      expect(unknown.status).toBe(400);
      expect(unknown.body.fieldErrors).toEqual([{ path: 'objectKey', message: 'Unknown field' }]);
      const noFile = await upload(as.expert, { company_cuid: demo });
      expect(noFile.status).toBe(400);
      expect(noFile.body.fieldErrors).toEqual([{ path: 'file', message: 'Required' }]);
      // Brand assets are for superusers (admin actions).
      expect((await upload(as.installer, { company_cuid: demo, rootDomainName: 'localhost' }, png)).status).toBe(403);
      // A form posted from another site carries the cookie but is refused (multipart posts need no CORS preflight).
      const form = new FormData();
      form.append('company_cuid', demo);
      form.append('file', new Blob([new Uint8Array(PNG_BYTES)], { type: 'image/png' }), 'x.png');
      const crossSite = await fetch(`${t.baseUrl}/api/files`, {
        method: 'POST',
        body: form,
        headers: { cookie: as.expert.cookieHeader(), origin: 'https://evil.example' },
      });
      expect(crossSite.status).toBe(403);
    });
    // A system shared read-only takes no files from the company it is shared with.
    const clinic = (await t.db.dataSource.query(`SELECT system_cuid FROM system WHERE name = $1`, [DEMO_SYSTEMS.clinic]))[0].system_cuid;
    await expectNothingStored(async () => {
      expect((await upload(as.expert, { system_cuid: clinic }, png)).status).toBe(403);
      const readOnly = await upload(as.expert, { company_cuid: demo, system_cuid: clinic }, png);
      expect(readOnly.status).toBe(400);
      expect(readOnly.body.fieldErrors).toEqual([{ path: 'system_cuid', message: 'This system is not shared with that company for changes' }]);
    });
    // The other company's Expert uploads into their own company, also for the workshop system shared with them for changes
    // (without a company the file goes to theirs, not to the owner's).
    const own = await upload(as.otherExpert, { company_cuid: other, system_cuid: workshop }, png);
    expect(own.status).toBe(201);
    expect(own.body.data).toMatchObject({ company_cuid: other, system_cuid: workshop });
    const implied = await upload(as.otherExpert, { system_cuid: workshop }, png);
    expect(implied.status).toBe(201);
    expect(implied.body.data).toMatchObject({ company_cuid: other, system_cuid: workshop });
  });

  it('too large → 413 with the limit in the message; nothing stored', async () => {
    await expectNothingStored(async () => {
      const big = Buffer.concat([PNG_BYTES, Buffer.alloc(MAX + 1)]);
      const res = await upload(as.expert, { company_cuid: demo }, { bytes: big, type: 'image/png', name: 'big.png' });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The file is larger than the limit of 0.3 MiB',
        messageCode: 'The file is larger than the limit of {size}',
      });
      // Far too large: refused on the announced length before the body is read.
      const huge = await upload(as.expert, { company_cuid: demo }, { bytes: Buffer.alloc(4 * MAX), type: 'image/png' });
      expect(huge.status).toBe(413);
    });
    // Exactly at the limit is fine.
    const edge = await upload(
      as.expert,
      { company_cuid: demo },
      { bytes: Buffer.concat([PNG_BYTES, Buffer.alloc(MAX - PNG_BYTES.length)]), type: 'image/png' },
    );
    expect(edge.status).toBe(201);
    expect(edge.body.data.size).toBe(MAX);
  });

  it('wrong type → 415 for types not accepted, 400 when the bytes contradict the declared type; nothing stored', async () => {
    await expectNothingStored(async () => {
      const exe = await upload(
        as.expert,
        { company_cuid: demo },
        { bytes: Buffer.from('MZ\x90\x00rest'), type: 'application/x-msdownload', name: 'setup.exe' },
      );
      expect(exe.status).toBe(415);
      expect(exe.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      const html = await upload(as.expert, { company_cuid: demo }, { bytes: '<html><script>x</script></html>', type: 'text/html', name: 'x.html' });
      expect(html.status).toBe(415);
      // Declared generic: the bytes decide, and an executable is not accepted.
      expect((await upload(as.expert, { company_cuid: demo }, { bytes: Buffer.from('\x7fELF\x02\x01'), type: 'application/octet-stream' })).status).toBe(415);
      // Declared PNG, but text; declared text, but a PNG; declared JSON, not JSON; declared SVG, but HTML; empty.
      const fakePng = await upload(as.expert, { company_cuid: demo }, { bytes: '<svg onload=alert(1)>', type: 'image/png', name: 'a.png' });
      expect(fakePng.status).toBe(400);
      expect(fakePng.body.message).toBe('The content of the file is not image/png');
      expect((await upload(as.expert, { company_cuid: demo }, { bytes: PNG_BYTES, type: 'text/plain' })).status).toBe(400);
      expect((await upload(as.expert, { company_cuid: demo }, { bytes: PNG_BYTES, type: 'image/jpeg' })).body.message).toBe(
        'The content of the file is not image/jpeg (it is image/png)',
      );
      expect((await upload(as.expert, { company_cuid: demo }, { bytes: '{"a":', type: 'application/json' })).status).toBe(400);
      expect((await upload(as.expert, { company_cuid: demo }, { bytes: '<html><body/></html>', type: 'image/svg+xml' })).status).toBe(400);
      expect((await upload(as.expert, { company_cuid: demo }, { bytes: '', type: 'text/plain' })).status).toBe(400);
      // Not multipart at all.
      const json = await as.expert.json('POST', '/api/files', { company_cuid: demo });
      expect(json.status).toBe(415);
    });
    // A PNG sent as application/octet-stream is recognised and stored as image/png.
    const generic = await upload(as.expert, { company_cuid: demo }, { bytes: PNG_BYTES, type: 'application/octet-stream', name: 'p' });
    expect(generic.status).toBe(201);
    expect(generic.body.data.contentType).toBe('image/png');
  });

  it('path tricks: a file name never reaches the object key, and odd ids never reach the disk', async () => {
    const up = await upload(as.expert, { company_cuid: demo }, { bytes: 'hello', type: 'text/plain', name: '../../../etc/passwd' });
    expect(up.status).toBe(201);
    expect(up.body.data.fileName).toBe('passwd');
    expect(up.body.data.objectKey).toMatch(/^[a-z0-9]{2}\/[a-z0-9]+$/);
    const win = await upload(as.expert, { company_cuid: demo }, { bytes: 'hello', type: 'text/plain', name: '..\\..\\boot.ini' });
    expect(win.body.data.fileName).toBe('boot.ini');
    for (const name of await filesUnder(dir)) expect(name).toMatch(/^[a-z0-9]{2}\/[a-z0-9]+$/);
    for (const path of [
      '/api/files/..%2F..%2Fetc%2Fpasswd',
      '/api/files/%2e%2e',
      `/api/files/${up.body.data.objectKey.replace('/', '%2F')}`,
      '/api/files/a%00b',
    ]) {
      const res = await rawGet(t.baseUrl, path, { cookie: as.expert.cookieHeader() });
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
  });

  it('records are deleted by level 1 of the company (row and object), not by an Expert; there is no create or update procedure', async () => {
    const a = (await upload(as.expert, { company_cuid: demo }, { bytes: PNG_BYTES, type: 'image/png' })).body.data;
    const b = (await upload(as.expert, { company_cuid: demo }, { bytes: PDF_BYTES, type: 'application/pdf' })).body.data;
    expect((await as.expert.query('hostedFile.access', { ids: [a.id] })).data).toEqual({ data: { [a.id]: { edit: false, delete: false } } });
    expect((await as.installer.query('hostedFile.access', { ids: [a.id] })).data).toEqual({ data: { [a.id]: { edit: false, delete: true } } });
    expect((await as.expert.mutate('hostedFile.delete', { id: a.id })).error?.data.code).toBe('FORBIDDEN');
    expect(await readFile(join(dir, a.objectKey))).toEqual(PNG_BYTES);

    const removed = await as.installer.mutate('hostedFile.delete', { id: a.id });
    expect(removed.data?.data.id).toBe(a.id);
    await expect(readFile(join(dir, a.objectKey))).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await rawGet(t.baseUrl, a.url, { cookie: as.installer.cookieHeader() })).status).toBe(404);
    expect((await as.installer.mutate('hostedFile.deleteMany', { ids: [b.id] })).data).toEqual({ data: [b.id] });
    await expect(readFile(join(dir, b.objectKey))).rejects.toMatchObject({ code: 'ENOENT' });
    // Removed at once, so nothing is left queued for the sweep.
    expect(await t.db.dataSource.query(`SELECT * FROM hosted_file_orphan WHERE "objectKey" = ANY($1)`, [[a.objectKey, b.objectKey]])).toEqual([]);

    for (const call of ['hostedFile.create', 'hostedFile.update', 'hostedFile.updateMany']) {
      const res = await as.superuser.mutate(call, { data: { objectKey: 'x' } });
      expect({ call, code: res.error?.data.code }).toEqual({ call, code: 'NOT_FOUND' });
    }
  });

  it('brand assets: a superuser uploads for a root domain; the branding points at it; it is public on that domain only', async () => {
    const png = { bytes: PNG_BYTES, type: 'image/png', name: 'favicon.png' };
    const badRoot = await upload(as.superuser, { rootDomainName: 'nowhere.example' }, png);
    expect(badRoot.status).toBe(400);
    expect(badRoot.body.fieldErrors).toEqual([{ path: 'rootDomainName', message: 'Root domain not found' }]);
    const up = await upload(as.superuser, { rootDomainName: 'LOCALHOST' }, png);
    expect(up.status).toBe(201);
    const file = up.body.data;
    expect(file).toMatchObject({ rootDomainName: 'localhost', company_cuid: null });

    await t.db.dataSource.query(
      `UPDATE root_domain SET root_domain_data = root_domain_data || jsonb_build_object('favicon_url', $1::text) WHERE name = 'localhost'`,
      [file.url],
    );
    const brand = await rawGet(t.baseUrl, '/api/branding', { host: 'localhost:3000' });
    expect(JSON.parse(brand.body.toString()).favicon_url).toBe(file.url);

    const onDomain = await rawGet(t.baseUrl, file.url, { host: 'localhost:3000' });
    expect(onDomain.status).toBe(200);
    expect(onDomain.body).toEqual(PNG_BYTES);
    expect(onDomain.headers['cache-control']).toBe('public, max-age=3600');
    expect((await rawGet(t.baseUrl, file.url, { host: '127.0.0.1' })).status).toBe(401);
    expect((await rawGet(t.baseUrl, file.url, { host: 'evil-localhost' })).status).toBe(401);
    // Signed-in members of a company do not see a platform brand asset elsewhere; a superuser does.
    expect((await rawGet(t.baseUrl, file.url, { host: '127.0.0.1', cookie: as.installer.cookieHeader() })).status).toBe(404);
    expect((await rawGet(t.baseUrl, file.url, { host: '127.0.0.1', cookie: as.superuser.cookieHeader() })).status).toBe(200);
    // The shipped defaults keep working.
    expect((await rawGet(t.baseUrl, '/brand/favicon.svg', { host: 'localhost:3000' })).status).toBe(200);

    // Deleting a brand asset is an admin action too.
    expect((await as.installer.mutate('hostedFile.delete', { id: file.id })).error?.data.code).toBe('NOT_FOUND');
    expect((await as.superuser.mutate('hostedFile.delete', { id: file.id })).data?.data.id).toBe(file.id);
    expect((await rawGet(t.baseUrl, file.url, { host: 'localhost:3000' })).status).toBe(401);
  });

  it('multipart details: fields after the file are read; two files, another file field or a repeated field are 400; HEAD answers headers only', async () => {
    const png = { bytes: PNG_BYTES, type: 'image/png', name: 'late.png' };
    const late = await upload(as.expert, { company_cuid: demo }, png, { fileFirst: true });
    expect(late.status).toBe(201);
    expect(late.body.data.company_cuid).toBe(demo);
    await expectNothingStored(async () => {
      const two = await upload(as.expert, { company_cuid: demo }, { ...png, copies: 2 });
      expect(two.status).toBe(400);
      const field = await upload(as.expert, { company_cuid: demo }, { ...png, field: 'image' });
      expect(field.status).toBe(400);
      expect(field.body.fieldErrors).toEqual([{ path: 'image', message: 'Unknown file field' }]);
      const form = new FormData();
      form.append('company_cuid', demo);
      form.append('company_cuid', other);
      form.append('file', new Blob([new Uint8Array(PNG_BYTES)], { type: 'image/png' }), 'x.png');
      const twice = await fetch(`${t.baseUrl}/api/files`, { method: 'POST', body: form, headers: { cookie: as.expert.cookieHeader() } });
      expect(twice.status).toBe(400);
      const broken = await fetch(`${t.baseUrl}/api/files`, {
        method: 'POST',
        body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nunterminated',
        headers: { cookie: as.expert.cookieHeader(), 'content-type': 'multipart/form-data; boundary=xyz' },
      });
      expect(broken.status).toBe(400);
    });
    const head = await fetch(`${t.baseUrl}${late.body.data.url}`, { method: 'HEAD', headers: { cookie: as.expert.cookieHeader() } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/png');
  });

  it('a brand asset of a Domain is public on that host only', async () => {
    await t.db.dataSource.query(`INSERT INTO domain (name, sub_domain_name, root_domain_name) VALUES ('shop.localhost', 'shop', 'localhost')`);
    const up = await upload(as.superuser, { domainName: 'shop.localhost' }, { bytes: SVG_TEXT, type: 'image/svg+xml', name: 'logo.svg' });
    expect(up.status).toBe(201);
    expect(up.body.data).toMatchObject({ domainName: 'shop.localhost', rootDomainName: null, company_cuid: null });
    const onShop = await rawGet(t.baseUrl, up.body.data.url, { host: 'shop.localhost' });
    expect(onShop.status).toBe(200);
    expect(onShop.headers['content-security-policy']).toMatch(/sandbox/);
    expect((await rawGet(t.baseUrl, up.body.data.url, { host: 'localhost' })).status).toBe(401);
    expect((await rawGet(t.baseUrl, up.body.data.url, { host: 'x.shop.localhost' })).status).toBe(401);
    const wrongRoot = await upload(as.superuser, { domainName: 'shop.localhost', rootDomainName: '127.0.0.1' }, { bytes: PNG_BYTES, type: 'image/png' });
    expect(wrongRoot.status).toBe(400);
  });

  it('files of a deleted company go with it: the cascade queues their objects and the sweep removes them', async () => {
    await t.db.dataSource.query(`INSERT INTO company (company_cuid, name) VALUES ('sweepcompany000000000001', 'Sweep Co')`);
    const up = await upload(as.superuser, { company_cuid: 'sweepcompany000000000001' }, { bytes: PDF_BYTES, type: 'application/pdf' });
    expect(up.status).toBe(201);
    const key = up.body.data.objectKey;
    await t.db.dataSource.query(`DELETE FROM company WHERE company_cuid = 'sweepcompany000000000001'`);
    expect(await rows()).toBeGreaterThan(0);
    expect(await t.db.dataSource.query(`SELECT 1 FROM hosted_file WHERE id = $1`, [up.body.data.id])).toEqual([]);
    expect(await readFile(join(dir, key))).toEqual(PDF_BYTES);
    expect(await t.db.dataSource.query(`SELECT "objectKey" FROM hosted_file_orphan`)).toEqual([{ objectKey: key }]);

    expect(await t.app.get(FilesService).sweepOrphans()).toBe(1);
    await expect(readFile(join(dir, key))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await t.db.dataSource.query(`SELECT * FROM hosted_file_orphan`)).toEqual([]);
    expect(await t.app.get(FilesService).sweepOrphans()).toBe(0);
  });

  it('hostedFile.limits tells a form the size limit and the accepted types', async () => {
    const limits = await as.basic.query('hostedFile.limits');
    expect(limits.data).toEqual({
      maxBytes: MAX,
      allowedTypes: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml', 'application/pdf', 'text/csv', 'text/plain', 'application/json'],
    });
    expect((await as.anonymous.query('hostedFile.limits')).error?.data.code).toBe('UNAUTHORIZED');
  });

  it('list filters, sorts and search are checked: unknown ones are 400, never 500', async () => {
    const sorted = await as.superuser.query('hostedFile.getList', {
      pagination: { page: 1, perPage: 5 },
      sort: { field: 'size', order: 'ASC' },
      filter: { q: 'passwd' },
    });
    expect(sorted.data.data.map((f: { fileName: string }) => f.fileName)).toEqual(['passwd']);
    expect((await as.superuser.query('hostedFile.getList', { filter: { objectKey: 'x' } })).error?.data.code).toBe('BAD_REQUEST');
    expect((await as.superuser.query('hostedFile.getList', { sort: { field: 'objectKey; DROP', order: 'ASC' } })).error?.data.code).toBe('BAD_REQUEST');
    expect((await as.superuser.query('hostedFile.getManyReference', { target: 'objectKey', id: 'x' })).error?.data.code).toBe('BAD_REQUEST');
  });
});
