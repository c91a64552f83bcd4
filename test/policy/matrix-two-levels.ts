/**
 * The policy matrix for users of two companies (issue 24: levels count in their own company, for
 * reads too), shared by matrix-two-levels-below.spec.ts and matrix-two-levels-above.spec.ts (two
 * files, so they run side by side). Every procedure of the fixture, read or write, on every
 * relation, for an actor at level L in the case's company (with and without company admin where §6
 * talks about admins) who is also at another level L' (not admin) in a company related to nothing
 * of the case: the verdict is the one-company actor's at L (`expectTwoLevels` says how a refusal
 * shows once L' passes the first check), with zero cross-company reads (no foreign marker in any
 * answer) and zero cross-company writes (the foreign companies' rows are checksummed before and
 * after). One test per ordered pair of levels and half of the relations (each well inside its
 * time-out on a busy machine); level 0 anywhere is a superuser (policy.spec.ts).
 */
import type { Level, Relation } from '../factories/policy-world';
import { casesForTwoLevels, policyWorldFor, runAgainstForeign } from './matrix-harness';

const HALVES: [name: string, relations: readonly Relation[]][] = [
  ['own and foreign', ['own', 'foreign']],
  ['shared read-only and with change', ['sharedRO', 'sharedChange']],
];

export function twoLevelsMatrix(title: string, pairs: readonly [here: Level, elsewhere: Level][]): void {
  describe(title, () => {
    const world = policyWorldFor();
    const rows = pairs.flatMap(([here, elsewhere]) => HALVES.map(([name, relations]) => [here, elsewhere, name, relations] as const));

    it.each(rows)(
      'level %i in the company concerned and level %i in another, on %s records: every procedure answers as for a one-company actor at the first level, with zero cross-company reads or writes',
      async (here, elsewhere, _name, relations) => {
        const { w } = world;
        const cases = casesForTwoLevels(w, here, elsewhere).filter((c) => relations.includes(c.rel));
        expect(cases.length).toBeGreaterThan(100);
        // the class is not empty: the other level changes what the first check alone would say
        if (elsewhere < here) expect(cases.filter((c) => c.entry.expect(c.who, c.rel) === 'deny' && c.expected !== 'deny').length).toBeGreaterThan(20);
        const { failures, foreignBefore, foreignAfter } = await runAgainstForeign(w, cases);
        expect(Object.keys(foreignBefore).length).toBeGreaterThan(3);
        expect(failures).toEqual([]);
        expect(foreignAfter).toEqual(foreignBefore);
      },
    );
  });
}
