/**
 * Jest's order of test files, longest first. With timings from an earlier run (Jest's cache) Jest
 * already does so; on a fresh clone it falls back to file size, which puts the policy matrix (short
 * files that run for many minutes) last, and a 2-core run then ends with one worker busy for a
 * quarter of an hour while the other waits. The files below (worker seconds of a loaded embedded
 * run) go first, longest first; the rest keep Jest's own order.
 */
const { relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const SLOW = {
  'test/policy/matrix-two-levels-above.spec.ts': 879,
  'test/policy/matrix-levels.spec.ts': 669,
  'test/policy/matrix-two-levels-below.spec.ts': 650,
  'test/policy/matrix.spec.ts': 414,
  'test/policy/generated-inputs-2.spec.ts': 362,
  'test/policy/generated-inputs-1.spec.ts': 360,
  'test/shared-batches/storable-input.spec.ts': 169,
  'test/http/prepare-database.spec.ts': 112,
};

class LongestFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const weight = (t) => SLOW[relative(__dirname + '/..', t.path).split('\\').join('/')];
    const known = sorted.filter((t) => weight(t) !== undefined).sort((a, b) => weight(b) - weight(a));
    return [...known, ...sorted.filter((t) => weight(t) === undefined)];
  }
}

module.exports = LongestFirst;
