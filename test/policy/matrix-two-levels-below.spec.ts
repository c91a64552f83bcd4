/**
 * Users of two companies, less powerful in the company concerned than in the other one (Basic in A
 * and Expert in B …): nothing of A that needs the level of B. See ./matrix-two-levels.ts.
 */
import { twoLevelsMatrix } from './matrix-two-levels';

// A level of the matrix took up to ~300 s on a loaded 2-core machine; a hang still fails.
jest.setTimeout(900_000);

twoLevelsMatrix('policy matrix (spec §6), users of two companies, less powerful in the company concerned: levels count in their own company', [
  [3, 2],
  [3, 1],
  [2, 1],
]);
