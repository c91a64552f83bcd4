import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BUILT = resolve(process.cwd(), 'dist', 'client');

/**
 * The browser app the network tests serve: dist/client when `npm run build` made it; otherwise a
 * small stand-in built into a temporary directory from real text files with Vite-style hashed
 * names (a large and a tiny script, a stylesheet, an SVG, a PNG), precompressed by the same
 * scripts/precompress.mjs the build runs.
 */
export function clientBuild(): { dir: string; built: boolean; cleanup(): void } {
  if (existsSync(join(BUILT, 'index.html'))) return { dir: BUILT, built: true, cleanup: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'portal-client-'));
  const assets = join(dir, 'assets');
  mkdirSync(assets);
  copyFileSync(resolve('client', 'index.html'), join(dir, 'index.html'));
  copyFileSync(resolve('node_modules', 'react-dom', 'cjs', 'react-dom-client.production.js'), join(assets, 'index-Dk3Lq9Zx.js'));
  copyFileSync(resolve('node_modules', 'leaflet', 'dist', 'leaflet.css'), join(assets, 'App-C0s9Xw1a.css'));
  writeFileSync(join(assets, 'tiny-B8u2Qa7N.js'), 'export const tiny = 1;\n');
  for (const name of readdirSync(resolve('server', 'assets', 'brand'))) {
    const dot = name.lastIndexOf('.');
    copyFileSync(resolve('server', 'assets', 'brand', name), join(assets, `${name.slice(0, dot)}-Zq8PbN4c${name.slice(dot)}`));
  }
  execFileSync(process.execPath, [resolve('scripts', 'precompress.mjs'), dir], { stdio: 'ignore' });
  return { dir, built: false, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
