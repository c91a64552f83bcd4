import type { FastifyCompressOptions } from '@fastify/compress';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { constants } from 'node:zlib';

/** Answers smaller than this are sent as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Types compressed on the fly: text (never `text/event-stream`: a live stream must flush each
 * event at once), JSON, JavaScript, XML and SVG. Images, archives, xlsx and opaque bytes are
 * already compressed or unknown.
 */
const COMPRESSIBLE = /^(?:text\/(?!event-stream)[\w.+-]+|application\/(?:json|javascript|xml|[\w.+-]+\+(?:json|xml))|image\/svg\+xml)\s*(?:;|$)/i;

export const compressibleType = (type: string): boolean => COMPRESSIBLE.test(type);

/**
 * @fastify/compress for the API and rendered pages: brotli at a low quality (4: close to gzip's
 * speed, smaller) and gzip level 6, above 1 KB. The built assets are not compressed here: they
 * were compressed once at build time (scripts/precompress.mjs, quality 11) and are sent as stored.
 * Request bodies are never inflated (a small compressed body could expand past the body limit).
 */
export const COMPRESS_OPTIONS: FastifyCompressOptions = {
  global: true,
  globalDecompression: false,
  threshold: COMPRESS_THRESHOLD_BYTES,
  // Whole answers up to 64 KB (every list page) are compressed in one call, not through a zlib
  // stream per answer: on 2 cores the stream's setup and thread hand-off cost more than the work.
  syncThreshold: 65_536,
  encodings: ['br', 'gzip'],
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } },
  zlibOptions: { level: 6 },
  customTypes: compressibleType,
};

/**
 * Runs before the compression hook and keeps some answers identity, which @fastify/compress
 * cannot tell from the content type alone:
 * - answers that offer or carry byte ranges (`accept-ranges: bytes`, `content-range`): a resumed
 *   download asks for offsets of the bytes it was first sent (export files, static files);
 * - opaque bytes (`application/octet-stream`: uploads of unknown kind, usually compressed already;
 *   mime-db would call them compressible);
 * - streams whose declared length is under the threshold (the threshold only sees whole bodies).
 * The plugin's documented per-request switch is the `x-no-compression` request header.
 */
export function keepIdentity(req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  const ranges = String(reply.getHeader('accept-ranges') ?? 'none').toLowerCase() !== 'none' || reply.hasHeader('content-range');
  const opaque = /^application\/octet-stream\s*(;|$)/i.test(String(reply.getHeader('content-type') ?? ''));
  const declared = Number(reply.getHeader('content-length'));
  const small = reply.hasHeader('content-length') && Number.isFinite(declared) && declared < COMPRESS_THRESHOLD_BYTES;
  if (ranges || opaque || small) req.raw.headers['x-no-compression'] = '1';
  done(null, payload);
}

/** Cache lifetimes of the files the server sends from disk. */
export const ONE_YEAR_SECONDS = 31_536_000;
/** Vite's hashed names: `assets/index-BvX3kq9Z.js` (the hash changes with the content). */
const HASHED = /(^|\/)assets\/[^/]+-[A-Za-z0-9_-]{8,}(\.[a-z0-9]+)+$/;

/**
 * @fastify/static's setHeaders for the browser app: a hashed file never changes under its name, so
 * it is kept a year without revalidation; anything else (an unhashed file) is revalidated.
 */
export function clientFileHeaders(reply: { header(name: string, value: string): unknown }, path: string): void {
  const unix = path.split('\\').join('/');
  reply.header('cache-control', HASHED.test(unix) ? `public, max-age=${ONE_YEAR_SECONDS}, immutable` : 'no-cache');
}

/** Brand images change only with a deployment: a day in the cache, then revalidated by ETag. */
export const BRAND_MAX_AGE_SECONDS = 86_400;
export function brandFileHeaders(reply: { header(name: string, value: string): unknown }): void {
  reply.header('cache-control', `public, max-age=${BRAND_MAX_AGE_SECONDS}`);
}
