/**
 * The PostgreSQL step of `.ci/run`. The plain `npm test` (embedded PGlite) already runs every test;
 * on PostgreSQL we run again what can behave differently on a PostgreSQL 15 server: every test that
 * sends the services' SQL (test/ but the folders below), the repositories (test/medium), the
 * several-instance and kill tests, and every spec that looks at the database kind or at the
 * generated-input count, itself or through a local helper it imports (TEST_DATABASE_URL,
 * isEmbedded, liveOverPostgres, FUZZ_RUNS, or a `@postgres` note saying why).
 * Not again: unit specs beside the code (no database), the policy matrix (its verdicts do not
 * depend on the database; the SQL it reaches is the CRUD tests'), the message and structure walks
 * (source text), the network tests (compression and caching headers), and the request plumbing
 * below: files that test HTTP, tRPC, MQTT or process handling and send no SQL of their own.
 */
const { readdirSync, readFileSync, existsSync } = require('node:fs');
const { join, dirname, relative, resolve } = require('node:path');
const base = require('./jest.config.js');

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
const root = __dirname;
const plumbing = (f) => PLUMBING.includes(relative(root, f).split('\\').join('/'));
const selected = [
  ...specs(join(root, 'test')).filter((f) => !plumbing(f) && (marked(f) || !SAME_ON_ANY_DATABASE.some((r) => r.test(f)))),
  ...specs(join(root, 'server')).filter(marked),
];

module.exports = {
  ...base,
  testMatch: undefined,
  testRegex: selected.map((f) => `${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
};
