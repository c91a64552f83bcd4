import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';

/** Screenshots land here (git-ignored). */
export const OUTPUT_DIR = resolve(__dirname, '..', 'output');

export { CHROMIUM_ARGS, CHROMIUM_PATH, launchChromium } from '../../factories/chromium';

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const path = join(OUTPUT_DIR, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** The browser app must be built (the server serves dist/client). */
export function assertClientBuilt(): void {
  const index = resolve(process.cwd(), 'dist', 'client', 'index.html');
  if (!existsSync(index)) throw new Error(`${index} is missing: run npm run build before npm run test:browser`);
}
