import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * No source file of the product over 400 lines (server/src, client/src, shared/, their specs
 * included): a file that grows past it holds two things and is split by what it does. Migrations
 * are history, written once and never edited, and are left out.
 */
const ROOT = resolve(__dirname, '..', '..');
const LIMIT = 400;
const EXEMPT = [/^server\/src\/database\/migrations\//];

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(ts|tsx|mjs|js|css)$/.test(name)) out.push(path);
  }
  return out;
}

describe(`source files stay under ${LIMIT} lines`, () => {
  const files = ['server/src', 'client/src', 'shared']
    .flatMap((d) => walk(join(ROOT, d)))
    .map((f) => relative(ROOT, f).split('\\').join('/'))
    .filter((f) => !EXEMPT.some((r) => r.test(f)));

  it('finds the sources', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files).toContain('server/src/app.ts');
  });

  it(`has no file over ${LIMIT} lines`, () => {
    const over = files
      .map((f) => ({ f, lines: readFileSync(join(ROOT, f), 'utf8').split('\n').length - 1 }))
      .filter((x) => x.lines > LIMIT)
      .map((x) => `${x.f}: ${x.lines} lines`);
    expect(over).toEqual([]);
  });
});
