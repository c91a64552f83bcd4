/**
 * What a file really is, from its bytes. The declared type of an upload is only believed when the
 * content agrees: binary formats by their magic numbers, text formats by being valid UTF-8
 * without NUL bytes (and, for JSON and SVG, by parsing / looking like one).
 */

export const BINARY_SIGNATURES: readonly { type: string; test: (b: Buffer) => boolean }[] = [
  { type: 'image/png', test: (b) => b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', test: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/webp', test: (b) => b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP' },
  { type: 'image/gif', test: (b) => b.length >= 6 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6)) },
  { type: 'application/pdf', test: (b) => b.length >= 5 && b.toString('latin1', 0, 5) === '%PDF-' },
  { type: 'application/zip', test: (b) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04 },
  { type: 'application/gzip', test: (b) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b },
  { type: 'application/x-executable', test: (b) => b.length >= 4 && (b.toString('latin1', 0, 4) === '\x7fELF' || b.toString('latin1', 0, 2) === 'MZ') },
];

/** Types whose content is UTF-8 text. */
export const TEXT_TYPES = new Set(['text/plain', 'text/csv', 'application/json', 'image/svg+xml']);

/** Images and PDF open in the browser; everything else (SVG included: it can carry script) downloads. */
export const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'application/pdf']);

/** `Text/Plain; charset=utf-8` → `text/plain`; '' for nonsense. */
export function normaliseType(declared: string | undefined): string {
  const type = (declared ?? '').split(';')[0].trim().toLowerCase();
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type) ? type : '';
}

function binaryTypeOf(bytes: Buffer): string | undefined {
  return BINARY_SIGNATURES.find((s) => s.test(bytes))?.type;
}

function asText(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** An SVG document: optional BOM, XML declaration, comments and doctype, then an <svg> root. */
function looksLikeSvg(text: string): boolean {
  const head = text
    .slice(0, 4096)
    .replace(/^\uFEFF/, '')
    .replace(/<\?xml[\s\S]*?\?>/, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/i, '')
    .trimStart();
  return /^<svg[\s/>]/i.test(head);
}

export type ContentCheck = { ok: true; type: string } | { ok: false; status: 400 | 415; message: string };

/**
 * Decides the stored type of an upload: the declared type (normalised) when it is allowed and the
 * bytes agree with it. A missing or generic declared type (application/octet-stream) is replaced
 * by what the bytes show. 415 for a type that is not accepted, 400 for content that lies.
 */
export function checkContent(bytes: Buffer, declared: string | undefined, allowed: ReadonlySet<string>): ContentCheck {
  if (bytes.length === 0) return { ok: false, status: 400, message: 'The file is empty' };
  const binary = binaryTypeOf(bytes);
  let type = normaliseType(declared);
  if (!type || type === 'application/octet-stream') {
    type = binary ?? (asText(bytes) !== undefined ? (looksLikeSvg(asText(bytes)!) ? 'image/svg+xml' : 'text/plain') : '');
    if (!type) return { ok: false, status: 415, message: 'The type of this file could not be recognised' };
  }
  if (!allowed.has(type)) {
    return { ok: false, status: 415, message: `Files of type ${type} are not accepted (accepted: ${[...allowed].join(', ')})` };
  }
  if (TEXT_TYPES.has(type)) {
    const text = binary ? undefined : asText(bytes);
    if (text === undefined) return { ok: false, status: 400, message: `The content of the file is not ${type} (it is not UTF-8 text)` };
    if (type === 'application/json') {
      try {
        JSON.parse(text.replace(/^\uFEFF/, ''));
      } catch {
        return { ok: false, status: 400, message: 'The content of the file is not valid JSON' };
      }
    }
    if (type === 'image/svg+xml' && !looksLikeSvg(text)) {
      return { ok: false, status: 400, message: 'The content of the file is not an SVG image' };
    }
    return { ok: true, type };
  }
  if (binary !== type) {
    return { ok: false, status: 400, message: `The content of the file is not ${type}${binary ? ` (it is ${binary})` : ''}` };
  }
  return { ok: true, type };
}

/** The Content-Type header of a stored type (text gets its charset). */
export function contentTypeHeader(type: string): string {
  return TEXT_TYPES.has(type) ? `${type}; charset=utf-8` : type;
}

/** The display name of an upload: its last path segment, without control characters, at most 255 characters. */
export function cleanFileName(name: string | undefined): string | null {
  const last = (name ?? '').split(/[\\/]/).pop() ?? '';

  const clean = last
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim()
    .slice(0, 255);
  return clean && clean !== '.' && clean !== '..' ? clean : null;
}

/** Content-Disposition with an ASCII fallback name and the UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
