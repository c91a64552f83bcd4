#!/usr/bin/env node
/**
 * Precompresses the built browser app once, at build time, so the server never spends CPU on it:
 * every text asset (.js .mjs .css .svg .json .html .txt .xml .webmanifest; never source maps)
 * larger than MIN_BYTES gets `<file>.br` (brotli quality 11) and `<file>.gz` (gzip level 9) next
 * to it, each kept only when it is smaller than the file. The server serves them with
 * @fastify/static's `preCompressed` (see server/src/app.ts).
 *
 *   node scripts/precompress.mjs [directory]     (default: dist/client)
 *
 * `npm run build:client` runs it after vite. Also imported by the tests that need a build.
 */
import { readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export const PRECOMPRESSED_EXTENSIONS = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.html', '.txt', '.xml', '.webmanifest']);
export const MIN_BYTES = 1024;

async function* filesUnder(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * Writes the .br and .gz siblings of every eligible file under `dir` (a sibling that would not be
 * smaller than its file is removed instead). Returns one line per file: its path and the three sizes.
 */
export async function precompress(dir, { minBytes = MIN_BYTES } = {}) {
  const root = resolve(dir);
  const candidates = [];
  for await (const path of filesUnder(root)) {
    if (path.endsWith('.br') || path.endsWith('.gz')) continue;
    if (!PRECOMPRESSED_EXTENSIONS.has(extname(path).toLowerCase())) continue;
    if ((await stat(path)).size < minBytes) continue;
    candidates.push(path);
  }
  const done = [];
  // Two at a time: brotli 11 is heavy and the build machine may be small.
  const queue = [...candidates];
  const worker = async () => {
    for (let path = queue.shift(); path; path = queue.shift()) {
      const raw = await readFile(path);
      const [br, gzipped] = await Promise.all([
        brotli(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 11,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        }),
        gz(raw, { level: 9 }),
      ]);
      const sizes = { path: relative(root, path), raw: raw.length, br: 0, gz: 0 };
      for (const [ext, data, key] of [
        ['.br', br, 'br'],
        ['.gz', gzipped, 'gz'],
      ]) {
        if (data.length < raw.length) {
          await writeFile(path + ext, data);
          sizes[key] = data.length;
        } else {
          await unlink(path + ext).catch(() => undefined);
        }
      }
      done.push(sizes);
    }
  };
  await Promise.all([worker(), worker()]);
  return done.sort((a, b) => a.path.localeCompare(b.path));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? join('dist', 'client');
  const started = Date.now();
  const files = await precompress(dir);
  const sum = (k) => files.reduce((t, f) => t + f[k], 0);
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `precompress: ${files.length} files in ${dir}, ${kb(sum('raw'))} raw → ${kb(sum('br'))} brotli, ${kb(sum('gz'))} gzip (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}
