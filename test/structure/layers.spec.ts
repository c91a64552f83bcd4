import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** The layers of the README, read from the code's own imports by scripts/layers.mjs. */
describe('server layers', () => {
  const run = (...args: string[]) => execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'layers.mjs'), ...args], { encoding: 'utf8' });

  it('no import between folders runs upward or sits in a cycle, and every folder has a layer', () => {
    const summary = JSON.parse(run().split('\n')[0]) as Record<string, unknown>;
    expect(summary.arrows).toEqual(expect.any(Number));
    expect((summary.arrows as number) > 50).toBe(true); // the script did read the imports
    // `--list` names the offending files when this fails.
    expect({ ...summary, listing: summary.upward_arrows ? run('--list') : '' }).toMatchObject({
      upward_arrows: 0,
      arrows_inside_cycles: 0,
      folders_without_layer: [],
    });
  });
});
