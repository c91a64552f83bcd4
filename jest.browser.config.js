/**
 * `npm run test:browser`: what a person does, in Chromium (test/browser/, playwright-core driving
 * Debian's chromium; CHROMIUM_PATH overrides /usr/bin/chromium) and the browser app's own unit
 * tests (*.spec.ts under client/src). Needs `npm run build` first: the server serves dist/client.
 */
const base = require('./jest.config.js');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/browser', '<rootDir>/client/src'],
  testMatch: ['**/*.spec.ts'],
  // scale.spec.ts runs several built instances on one database: PostgreSQL only (TEST_DATABASE_URL).
  testPathIgnorePatterns: ['/node_modules/', '/dist/', ...(process.env.TEST_DATABASE_URL ? [] : ['/test/browser/scale'])],
  testTimeout: 120000,
  // Two files at once (each its own server and Chromium): a page spends much of its time waiting on
  // the network and timers, so two keep a 2-core machine busy (the step took 19 min on one worker).
  maxWorkers: 2,
};
