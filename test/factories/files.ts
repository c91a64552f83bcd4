import { request } from 'node:http';
import type { HttpClient } from './http-client';

/** A tiny valid PNG (1×1, transparent). */
export const PNG_BYTES = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1d6a3a80000000049454e44ae426082',
  'hex',
);
export const PDF_BYTES = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
export const SVG_TEXT =
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><script>alert(1)</script><rect width="16" height="16"/></svg>';

export interface UploadAnswer {
  status: number;
  body: any;
}

/** POST /api/files as multipart/form-data with the client's session cookie. */
export async function upload(
  client: HttpClient,
  fields: Record<string, string>,
  file?: { bytes: Buffer | string; type?: string; name?: string; field?: string; copies?: number },
  options: { fileFirst?: boolean } = {},
): Promise<UploadAnswer> {
  const form = new FormData();
  const addFields = () => {
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
  };
  if (!options.fileFirst) addFields();
  if (file) {
    const blob = new Blob([typeof file.bytes === 'string' ? file.bytes : new Uint8Array(file.bytes)], file.type !== undefined ? { type: file.type } : {});
    for (let i = 0; i < (file.copies ?? 1); i++) form.append(file.field ?? 'file', blob, file.name ?? 'upload.bin');
  }
  if (options.fileFirst) addFields();
  const res = await fetch(`${client.baseUrl}/api/files`, {
    method: 'POST',
    body: form,
    headers: client.cookies.size ? { cookie: client.cookieHeader() } : {},
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GET with an explicit Host header and optional cookie (fetch may not set Host). */
export function rawGet(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const u = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ hostname: u.hostname, port: u.port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}
