/**
 * Which test files the PostgreSQL step runs (jest.postgres.config.js; scripts/sql-cover.mjs).
 *
 * The plain `npm test` (embedded PGlite) runs every test. On PostgreSQL the step runs again what can
 * behave differently on a PostgreSQL 15 server, chosen by the SQL it sends:
 *   - always: the repositories' own tests (test/medium: every statement of a repository on the real
 *     server), every file that runs only on PostgreSQL (several instances, kill -9: POSTGRES_ONLY),
 *     and every spec that looks at the database kind or the generated-input count, itself or through
 *     a local helper it imports (TEST_DATABASE_URL, isEmbedded, liveOverPostgres, FUZZ_RUNS, or a
 *     `@postgres` note saying why);
 *   - the cover (test/postgres-cover.json): the fewest further files that, between them, send every
 *     other statement the product sends in any test, so no statement of the product's goes untried
 *     on PostgreSQL. It is measured, not guessed: a run with SQL_TRACE_DIR records each file's
 *     statements and `node scripts/sql-cover.mjs DIR --write` chooses the files (see that script).
 * POSTGRES_ALL_SQL_FILES=1 selects every file that sends the product's SQL (the run to trace).
 * Never on PostgreSQL: unit specs beside the code (no database), the policy matrix (its verdicts do
 * not depend on the database; the SQL it reaches is the CRUD tests'), the message and structure walks
 * (source text), the network tests (compression and caching headers), and the request plumbing
 * below: files that test HTTP, tRPC, MQTT or process handling and send no SQL of their own.
 */
const { readdirSync, readFileSync, existsSync } = require('node:fs');
const { join, dirname, relative, resolve } = require('node:path');
const { POSTGRES_ONLY } = require('./postgres-only');

const MARKER = /TEST_DATABASE_URL|isEmbedded|liveOverPostgres|FUZZ_RUNS|@postgres\b/;
const SAME_ON_ANY_DATABASE = [/\/test\/policy\/matrix/, /\/test\/messages\//, /\/test\/structure\//, /\/test\/network\//];

/** Request plumbing: what these files check happens before or beside any SQL, so no database can change it. */
const PLUMBING = [
  'test/http/request-guards.spec.ts', // body sizes, content types, methods: refused before a procedure runs
  'test/http/trpc-wire.spec.ts', // the tRPC wire format (batching, superjson, GET/POST)
  'test/http/trpc-limits.spec.ts', // batch and input size limits
  'test/http/idle.spec.ts', // idle connections closed
  'test/http/metrics-token.spec.ts', // the metrics endpoint's token
  'test/http/session-secure-cookie.spec.ts', // cookie attributes
  'test/http/session-secret.spec.ts', // the session secret's checks at start
  'test/http/request-brake.spec.ts', // the per-session brake, in memory
  'test/http/messages-language.spec.ts', // the answer's language
  'test/http/shutdown.spec.ts', // signals and draining
  'test/http/test-client-resend.spec.ts', // the test client itself
  'test/mqtt/broker-limits.spec.ts', // the embedded broker's packet limits
  'test/mqtt/session-quota.spec.ts', // MQTT sessions per controller, in the broker
  'test/mqtt/ack-after-commit-client.spec.ts', // the MQTT client against Mosquitto, no database
  'test/structure/compose.spec.ts', // the compose file's text ("@postgres:5432" is a host name)
];

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
const root = join(__dirname, '..');
const rel = (f) => relative(root, f).split('\\').join('/');
const plumbing = (f) => PLUMBING.includes(rel(f));
/** Every file that sends the product's SQL: what the step ran before the cover, and what `SQL_TRACE_DIR` traces. */
const broad = [
  ...specs(join(root, 'test')).filter((f) => !plumbing(f) && (marked(f) || !SAME_ON_ANY_DATABASE.some((r) => r.test(f)))),
  ...specs(join(root, 'server')).filter(marked),
];
/** Always on PostgreSQL: the repositories' own tests, and every file that asks for PostgreSQL itself. */
const onlyHere = (f) => POSTGRES_ONLY.some((p) => rel(f).startsWith(p));
const always = broad.filter((f) => rel(f).startsWith('test/medium/') || marked(f) || onlyHere(f)).map(rel);
/** The fewest further files that send every other statement the broad set sends (scripts/sql-cover.mjs). */
const cover = JSON.parse(readFileSync(join(root, 'test/postgres-cover.json'), 'utf8')).files;
const missing = cover.filter((f) => !existsSync(join(root, f)));
if (missing.length) throw new Error(`test/postgres-cover.json names files that do not exist: ${missing.join(', ')} (run scripts/sql-cover.mjs again)`);
const selected = process.env.POSTGRES_ALL_SQL_FILES ? broad.map(rel) : [...new Set([...always, ...cover])];

module.exports = { broad: broad.map(rel), always, cover, selected };
