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
  roots: ['<rootDir>/server', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  // The kill -9 tests run the built server (or the built outbox worker) as a child process on the same database, so they need
  // PostgreSQL (TEST_DATABASE_URL): an in-memory PGlite cannot be shared between processes.
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/test/browser/', ...(process.env.TEST_DATABASE_URL ? [] : ['/test/mqtt/kill9', '/test/alerts/outbox-kill9', '/test/scale/'])],
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: [
    '/node_modules/(?!(?:.*/node_modules/)?(superjson|copy-anything|is-what|@paralleldrive/cuid2|@noble/hashes|bignumber\.js|error-causes|content-disposition)/)',
  ],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
