import { DEMO_COMPANY_NAME, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { S3FileStorage } from '../../server/src/files/s3-file-storage';
import { startTestApp, type TestApp } from '../factories/app';
import { PDF_BYTES, PNG_BYTES, rawGet, upload } from '../factories/files';
import { HttpClient } from '../factories/http-client';
import { startS3Peer, type S3Peer } from '../factories/s3-peer';
import { addMember } from '../factories/users';

describe('hosted files in an S3-compatible store (the real AWS SDK against a local S3 peer)', () => {
  let peer: S3Peer;
  let t: TestApp;
  let demo: string;
  const as: Record<string, HttpClient> = {};

  beforeAll(async () => {
    peer = await startS3Peer({ bucket: 'portal-files', region: 'eu-west-1' });
    t = await startTestApp({
      FILES_S3_BUCKET: peer.bucket,
      FILES_S3_ENDPOINT: peer.endpoint,
      FILES_S3_REGION: peer.region,
      FILES_S3_ACCESS_KEY_ID: peer.accessKeyId,
      FILES_S3_SECRET_ACCESS_KEY: peer.secretAccessKey,
      FILES_MAX_BYTES: String(64 * 1024),
      // A disk folder that must stay unused.
      FILES_DIR: '/nonexistent/portal-files-must-not-be-used',
    });
    demo = (await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = $1`, [DEMO_COMPANY_NAME]))[0].company_cuid;
    await addMember(t.db.dataSource, 'other-expert@s3.test', OTHER_COMPANY_NAME, 2);
    await addMember(t.db.dataSource, 'other-installer@s3.test', OTHER_COMPANY_NAME, 1);
    for (const [who, email] of [
      ['expert', 'expert@demo.local'],
      ['basic', 'basic@demo.local'],
      ['installer', 'installer@demo.local'],
      ['otherExpert', 'other-expert@s3.test'],
      ['otherInstaller', 'other-installer@s3.test'],
    ] as const) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(email)).status).toBe(200);
    }
  });

  afterAll(async () => {
    await t?.close();
    await peer?.close();
  });

  it('round trip: upload puts the object in the bucket (signed, with its type), download streams it back, delete removes it', async () => {
    const up = await upload(as.expert, { company_cuid: demo }, { bytes: PNG_BYTES, type: 'image/png', name: 'meter.png' });
    expect(up.status).toBe(201);
    const file = up.body.data;
    const stored = peer.objects.get(file.objectKey);
    expect(stored?.body).toEqual(PNG_BYTES);
    expect(stored?.contentType).toBe('image/png');
    expect(peer.requests.at(-1)).toEqual({ method: 'PUT', bucket: 'portal-files', key: file.objectKey, status: 200 });

    const got = await rawGet(t.baseUrl, file.url, { cookie: as.basic.cookieHeader() });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(PNG_BYTES);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['content-length']).toBe(String(PNG_BYTES.length));
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(peer.requests.at(-1)).toMatchObject({ method: 'GET', key: file.objectKey, status: 200 });

    // Another company: 404, and the store is not even asked.
    const before = peer.requests.length;
    expect((await rawGet(t.baseUrl, file.url, { cookie: as.otherExpert.cookieHeader() })).status).toBe(404);
    expect((await as.otherInstaller.mutate('hostedFile.delete', { id: file.id })).error?.data.code).toBe('NOT_FOUND');
    expect(peer.requests.length).toBe(before);
    expect(peer.objects.has(file.objectKey)).toBe(true);

    expect((await as.installer.mutate('hostedFile.delete', { id: file.id })).data?.data.id).toBe(file.id);
    expect(peer.objects.has(file.objectKey)).toBe(false);
    expect(peer.requests.at(-1)).toMatchObject({ method: 'DELETE', key: file.objectKey, status: 204 });
    expect((await rawGet(t.baseUrl, file.url, { cookie: as.installer.cookieHeader() })).status).toBe(404);
  });

  it('refusals store nothing in the bucket: too large (413), wrong type (415 / 400), Basic user (403)', async () => {
    const objects = peer.objects.size;
    const puts = peer.requests.filter((r) => r.method === 'PUT').length;
    const big = await upload(as.expert, { company_cuid: demo }, { bytes: Buffer.concat([PNG_BYTES, Buffer.alloc(64 * 1024)]), type: 'image/png' });
    expect(big.status).toBe(413);
    expect((await upload(as.expert, { company_cuid: demo }, { bytes: 'x', type: 'application/x-sh' })).status).toBe(415);
    expect((await upload(as.expert, { company_cuid: demo }, { bytes: 'not a pdf', type: 'application/pdf' })).status).toBe(400);
    expect((await upload(as.basic, { company_cuid: demo }, { bytes: PDF_BYTES, type: 'application/pdf' })).status).toBe(403);
    expect(peer.objects.size).toBe(objects);
    expect(peer.requests.filter((r) => r.method === 'PUT').length).toBe(puts);
  });

  it('a row whose object vanished from the store answers 404, not 500', async () => {
    const up = await upload(as.expert, { company_cuid: demo }, { bytes: PDF_BYTES, type: 'application/pdf', name: 'gone.pdf' });
    peer.objects.delete(up.body.data.objectKey);
    const res = await rawGet(t.baseUrl, up.body.data.url, { cookie: as.expert.cookieHeader() });
    expect(res.status).toBe(404);
  });

  describe('the S3 driver on its own', () => {
    const key = 'ab/abcdefghijklmnopqrstuvwx';
    let storage: S3FileStorage;
    beforeAll(() => {
      storage = new S3FileStorage({
        bucket: peer.bucket,
        region: peer.region,
        endpoint: peer.endpoint,
        accessKeyId: peer.accessKeyId,
        secretAccessKey: peer.secretAccessKey,
      });
    });
    afterAll(() => storage.destroy());

    it('puts, heads, gets and deletes; a missing object is undefined / false, and deleting it again is fine', async () => {
      expect(await storage.exists(key)).toBe(false);
      expect(await storage.get(key)).toBeUndefined();
      await storage.put(key, Buffer.from('hello'), 'text/plain');
      expect(await storage.exists(key)).toBe(true);
      expect(peer.requests.at(-1)).toMatchObject({ method: 'HEAD', key, status: 200 });
      const got = await storage.get(key);
      expect(got?.size).toBe(5);
      const chunks: Buffer[] = [];
      for await (const c of got!.body) chunks.push(Buffer.from(c));
      expect(Buffer.concat(chunks).toString()).toBe('hello');
      await storage.delete(key);
      await storage.delete(key);
      expect(await storage.exists(key)).toBe(false);
    });

    it('refuses keys it did not make, before any request', async () => {
      const before = peer.requests.length;
      for (const bad of ['../etc/passwd', 'ab/../../x', 'AB/ABC', '', 'ab/abcdefgh/../x']) {
        await expect(storage.put(bad, Buffer.from('x'), 'text/plain')).rejects.toThrow(/object key/);
        await expect(storage.get(bad)).rejects.toThrow(/object key/);
      }
      expect(peer.requests.length).toBe(before);
    });

    it('a wrong secret is refused by the peer (the signature is checked), and surfaces as an error', async () => {
      const wrong = new S3FileStorage({
        bucket: peer.bucket,
        region: peer.region,
        endpoint: peer.endpoint,
        accessKeyId: peer.accessKeyId,
        secretAccessKey: 'not-the-secret',
      });
      try {
        await expect(wrong.put(key, Buffer.from('x'), 'text/plain')).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
        expect(peer.objects.has(key)).toBe(false);
      } finally {
        wrong.destroy();
      }
    });
  });
});
