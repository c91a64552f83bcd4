/**
 * Jest's order of test files, longest first. With timings from an earlier run (Jest's cache) Jest
 * already does so; on a fresh clone it falls back to file size, which puts the policy matrix (short
 * files that run for many minutes) last, and a 2-core run then ends with one worker busy for a
 * quarter of an hour while the other waits. The files below (seconds, from a clean-clone `.ci/run`
 * on a 2-core machine) go first, longest first; the rest keep Jest's own order.
 */
const { relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const SLOW = {
  'test/policy/matrix-two-levels-below.spec.ts': 128,
  'test/policy/matrix-two-levels-above.spec.ts': 118,
  'test/policy/generated-inputs-2.spec.ts': 115,
  'test/policy/generated-inputs-1.spec.ts': 109,
  'test/policy/matrix-levels.spec.ts': 100,
  'test/http/crud-all-resources.spec.ts': 80,
  'test/http/stored-input-fields.spec.ts': 63,
  'test/policy/matrix.spec.ts': 59,
  // Browser tests (two workers).
  'test/browser/role-walk.spec.ts': 196,
  'test/browser/phone.spec.ts': 88,
  'test/browser/slow-link.spec.ts': 85,
  'test/browser/catalogue.spec.ts': 76,
};

class LongestFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const weight = (t) =>
      SLOW[
        relative(__dirname + '/..', t.path)
          .split('\\')
          .join('/')
      ];
    const known = sorted.filter((t) => weight(t) !== undefined).sort((a, b) => weight(b) - weight(a));
    return [...known, ...sorted.filter((t) => weight(t) === undefined)];
  }
}

module.exports = LongestFirst;
