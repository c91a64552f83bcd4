/**
 * The PostgreSQL step of `.ci/run`. The plain `npm test` (embedded PGlite) already runs every test;
 * on PostgreSQL we run again what can behave differently on a PostgreSQL 15 server: every test that
 * sends the services' SQL (test/ but the folders below), the repositories (test/medium), the
 * several-instance and kill tests, and every spec that looks at the database kind or at the
 * generated-input count, itself or through a local helper it imports (TEST_DATABASE_URL,
 * isEmbedded, liveOverPostgres, FUZZ_RUNS, or a `@postgres` note saying why).
 * Not again: unit specs beside the code (no database), the policy matrix (its verdicts do not
 * depend on the database; the SQL it reaches is the CRUD tests'), the message and structure walks
 * (source text), and the network tests (compression and caching headers).
 */
const { readdirSync, readFileSync, existsSync } = require('node:fs');
const { join, dirname, resolve } = require('node:path');
const base = require('./jest.config.js');

const MARKER = /TEST_DATABASE_URL|isEmbedded|liveOverPostgres|FUZZ_RUNS|@postgres\b/;
const SAME_ON_ANY_DATABASE = [/\/test\/policy\/matrix/, /\/test\/messages\//, /\/test\/structure\//, /\/test\/network\//];

function specs(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'browser' ? [] : specs(p);
    return e.name.endsWith('.spec.ts') ? [p] : [];
  });
}

/** The file's text and that of the local files it imports (one level: a spec's helpers). */
function sources(file) {
  const text = readFileSync(file, 'utf8');
  const local = [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)]
    .map((m) => resolve(dirname(file), m[1]))
    .flatMap((p) => [p, `${p}.ts`, join(p, 'index.ts')])
    .filter((p) => p.endsWith('.ts') && existsSync(p) && !/\/factories\/(app|database)\.ts$/.test(p));
  return [text, ...local.map((p) => readFileSync(p, 'utf8'))];
}

const marked = (f) => f.includes('/server/src/database/') || sources(f).some((t) => MARKER.test(t));
const root = __dirname;
const selected = [
  ...specs(join(root, 'test')).filter((f) => marked(f) || !SAME_ON_ANY_DATABASE.some((r) => r.test(f))),
  ...specs(join(root, 'server')).filter(marked),
];

module.exports = {
  ...base,
  testMatch: undefined,
  testRegex: selected.map((f) => `${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
};
