import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * No test of the server suites sets itself a time limit below the suite's (jest.config.js
 * `testTimeout`): the limit is sized for a busy 2-core laptop, where starting an app or a broker can
 * wait long for the CPU, and a file that lowers it fails there while nothing is wrong (the CI of a
 * stop failed on a 60 s hook this way). A test that hangs still fails at the suite's limit;
 * durations are measured in `npm run bench`. The browser suite has its own configuration and is
 * left out. Two forms are read: `jest.setTimeout(n)` and the number after a test's or hook's body
 * (`it('…', async () => { … }, n)`).
 */
const ROOT = resolve(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the configuration is CommonJS
const SUITE_LIMIT = (require(join(ROOT, 'jest.config.js')) as { testTimeout: number }).testTimeout;

function specs(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'browser') specs(path, out);
    } else if (name.endsWith('.spec.ts')) out.push(path);
  }
  return out;
}

/** `file:line limit` of every limit below the suite's in the text. */
function lowLimits(file: string, text: string): string[] {
  const lines = text.split('\n');
  const found: string[] = [];
  const number = (s: string) => Number(s.replace(/_/g, ''));
  lines.forEach((line, i) => {
    const set = /^\s*jest\.setTimeout\(([\d_]+)\)/.exec(line);
    if (set && number(set[1]) < SUITE_LIMIT) found.push(`${file}:${i + 1} ${number(set[1])}`);
    const close = /^(\s*)\}, ([\d_]+)\);\s*$/.exec(line);
    if (!close || number(close[2]) >= SUITE_LIMIT) return;
    // The statement this closes: the nearest line above at the same indentation.
    for (let j = i - 1; j >= 0; j--) {
      const l = lines[j];
      if (!l.trim() || !l.startsWith(close[1]) || l.startsWith(`${close[1]} `)) continue;
      if (/^(it|test|beforeAll|afterAll|beforeEach|afterEach)(\.each\(.*\))?\(/.test(l.trim())) found.push(`${file}:${i + 1} ${number(close[2])}`);
      break;
    }
  });
  return found;
}

describe(`no test sets a time limit below the suite's (${SUITE_LIMIT} ms)`, () => {
  const files = ['server/src', 'shared', 'test'].flatMap((d) => specs(join(ROOT, d)));

  it('reads both forms (a check that cannot fail is no check)', () => {
    expect(SUITE_LIMIT).toBeGreaterThanOrEqual(60_000);
    const sample = ['jest.setTimeout(60_000);', "it('x', async () => {", '  work();', '}, 30_000);', 'setTimeout(() => {', '}, 5);'].join('\n');
    expect(lowLimits('sample.spec.ts', sample)).toEqual(['sample.spec.ts:1 60000', 'sample.spec.ts:4 30000']);
    expect(files.length).toBeGreaterThan(100);
  });

  it('finds none in the server suites', () => {
    const found = files.flatMap((f) => lowLimits(relative(ROOT, f), readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });
});
