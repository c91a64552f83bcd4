/**
 * The PostgreSQL step of `.ci/run`: what can behave differently on a PostgreSQL 15 server, chosen by
 * the SQL each file sends (test/postgres-selection.js says how).
 */
const { join } = require('node:path');
const base = require('./jest.config.js');
const { selected } = require('./test/postgres-selection');

module.exports = {
  ...base,
  testMatch: undefined,
  testRegex: selected.map((f) => `${join(__dirname, f).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
};
