import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as they crossed the wire (still compressed when content-encoding says so). */
  body: Buffer;
}

/**
 * A GET through node:http, which (unlike fetch) neither asks for nor undoes compression: the test
 * chooses accept-encoding and sees the wire bytes.
 */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname: u.hostname, port: u.port, path: u.pathname + u.search, headers: { host: u.host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The body after undoing its content-encoding (br, gzip or none). */
export function decoded(answer: RawAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return gunzipSync(answer.body);
  if (encoding === undefined || encoding === 'identity') return answer.body;
  throw new Error(`unexpected content-encoding ${String(encoding)}`);
}
