const { availableParallelism, totalmem } = require('node:os');
const { POSTGRES_ONLY } = require('./test/postgres-only');

/** Jest: @swc/jest (decorator metadata) for speed; ESM-only packages are transformed too. */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/server', '<rootDir>/shared', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  // The kill -9 tests run the built server (or the built outbox worker) as a child process on the same database, so they need
  // PostgreSQL (TEST_DATABASE_URL): an in-memory PGlite cannot be shared between processes.
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/test/browser/', ...(process.env.TEST_DATABASE_URL ? [] : POSTGRES_ONLY.map((p) => `/${p}`))],
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: [
    '/node_modules/(?!(?:.*/node_modules/)?(superjson|copy-anything|is-what|@paralleldrive/cuid2|@noble/hashes|bignumber.js|error-causes|content-disposition)/)',
  ],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  // Sized for a busy 2-core laptop (load 8–13 seen): a hook that starts an app or a broker may wait
  // long for the CPU. A test that hangs still fails; durations are measured in `npm run bench`.
  testTimeout: 180000,
  // Two files per core: a test file spends much of its time waiting (on its app's timers, brokers,
  // child processes, argon2 in the thread pool), so on a 2-core machine four files at once took 25 %
  // less time than two (alerts, mqtt, control and exports: 175 s → 132 s; three: 144 s). At most one
  // per 2 GB of memory (a file's app and embedded database take up to the limit below).
  maxWorkers: Math.max(2, Math.min(2 * availableParallelism(), Math.floor(totalmem() / 2 ** 31))),
  // The longest files first on a fresh clone too (test/sequencer.js).
  testSequencer: '<rootDir>/test/sequencer.js',
  // Each file's embedded database (PGlite, WebAssembly) keeps its memory until the process ends: a
  // worker that ran many files grew past 7 GB. A worker above this after a file is replaced.
  workerIdleMemoryLimit: '1500MB',
};
