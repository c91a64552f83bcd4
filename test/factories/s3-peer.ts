import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface S3PeerObject {
  body: Buffer;
  contentType: string;
  etag: string;
  lastModified: Date;
}

export interface S3PeerRequest {
  method: string;
  bucket: string;
  key: string;
  status: number;
}

export interface S3Peer {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** What the peer holds, by object key. */
  objects: Map<string, S3PeerObject>;
  /** Every request it answered, in order. */
  requests: S3PeerRequest[];
  close(): Promise<void>;
}

const xmlError = (res: ServerResponse, status: number, code: string, message: string, head = false) => {
  res.statusCode = status;
  if (head) return res.end();
  res.setHeader('content-type', 'application/xml');
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
};

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it (S3 path segments are encoded once). */
const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Checks an AWS Signature Version 4 `Authorization` header the way S3 does: same access key,
 * same canonical request, same signature with the peer's secret. Returns an error text or ''.
 */
function verifySignature(req: IncomingMessage, url: URL, body: Buffer, peer: Pick<S3Peer, 'accessKeyId' | 'secretAccessKey' | 'region'>): string {
  const auth = req.headers.authorization ?? '';
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return 'missing or malformed Authorization';
  const [, keyId, day, region, signedHeaders, signature] = m;
  if (keyId !== peer.accessKeyId) return 'unknown access key';
  if (region !== peer.region) return 'wrong region';
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  if (!amzDate.startsWith(day)) return 'x-amz-date does not match the credential scope';
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body)) return 'payload hash does not match the body';
  const headerNames = signedHeaders.split(';');
  if (!headerNames.includes('host')) return 'host is not signed';
  const canonicalHeaders = headerNames
    .map(
      (h) =>
        `${h}:${String(req.headers[h] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const query = [...url.searchParams.entries()]
    .map(([k, v]) => [encode(k), encode(v)])
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalPath = url.pathname
    .split('/')
    .map((seg) => encode(decodeURIComponent(seg)))
    .join('/');
  const canonical = [req.method, canonicalPath, query, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${peer.secretAccessKey}`, day), region), 's3'), 'aws4_request');
  const expected = createHmac('sha256', key).update(toSign).digest('hex');
  return expected === signature ? '' : 'signature does not match';
}

/**
 * A small S3 look-alike for tests, path-style, one bucket: PutObject, GetObject, HeadObject and
 * DeleteObject, with SigV4 signatures checked against its own credentials (so the real SDK must
 * sign correctly). Anything else answers 501. Objects live in memory.
 */
export async function startS3Peer(options: { bucket?: string; accessKeyId?: string; secretAccessKey?: string; region?: string } = {}): Promise<S3Peer> {
  const peer = {
    bucket: options.bucket ?? 'portal-files',
    accessKeyId: options.accessKeyId ?? 'TESTPEERACCESSKEY',
    secretAccessKey: options.secretAccessKey ?? 'test-peer-secret-access-key',
    region: options.region ?? 'eu-west-1',
    objects: new Map<string, S3PeerObject>(),
    requests: [] as S3PeerRequest[],
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://peer');
    const [, bucket = '', ...rest] = url.pathname.split('/');
    const key = rest.map(decodeURIComponent).join('/');
    const head = req.method === 'HEAD';
    const answer = (status: number) => peer.requests.push({ method: req.method ?? '', bucket, key, status });

    const bad = verifySignature(req, url, body, peer);
    if (bad) {
      answer(403);
      return xmlError(res, 403, 'SignatureDoesNotMatch', bad, head);
    }
    if (bucket !== peer.bucket) {
      answer(404);
      return xmlError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist', head);
    }
    if (!key || [...url.searchParams.keys()].some((k) => k !== 'x-id')) {
      answer(501);
      return xmlError(res, 501, 'NotImplemented', 'Only object calls are implemented', head);
    }
    switch (req.method) {
      case 'PUT': {
        if (req.headers['content-encoding']?.includes('aws-chunked')) {
          answer(501);
          return xmlError(res, 501, 'NotImplemented', 'aws-chunked uploads are not implemented');
        }
        const etag = `"${createHash('md5').update(body).digest('hex')}"`;
        peer.objects.set(key, {
          body,
          contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
          etag,
          lastModified: new Date(),
        });
        answer(200);
        res.setHeader('etag', etag);
        return res.end();
      }
      case 'GET':
      case 'HEAD': {
        const object = peer.objects.get(key);
        if (!object) {
          answer(404);
          return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.', head);
        }
        answer(200);
        res.setHeader('content-type', object.contentType);
        res.setHeader('content-length', String(object.body.length));
        res.setHeader('etag', object.etag);
        res.setHeader('last-modified', object.lastModified.toUTCString());
        return res.end(head ? undefined : object.body);
      }
      case 'DELETE':
        peer.objects.delete(key);
        answer(204);
        res.statusCode = 204;
        return res.end();
      default:
        answer(501);
        return xmlError(res, 501, 'NotImplemented', `${req.method} is not implemented`);
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: Error) => xmlError(res, 500, 'InternalError', e.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...peer,
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
