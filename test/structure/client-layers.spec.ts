import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The browser app's layers (README "Layers", client part), read from client/src's own imports by
 * scripts/layers.mjs --client: transport → shared kit → data → screens → shell. The cycle figure is
 * counted between folders, so a file-level loop across folders (a screen's link prefetching the page
 * that shows the screen) counts too.
 */
describe('client layers', () => {
  const run = (...args: string[]) =>
    execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'layers.mjs'), '--client', ...args], { encoding: 'utf8' });

  it('no import between client folders runs upward or sits in a cycle, and every folder has a layer', () => {
    const summary = JSON.parse(run().split('\n')[0]) as Record<string, unknown>;
    expect((summary.arrows as number) > 50).toBe(true); // the script did read the imports
    expect({ ...summary, listing: summary.upward_arrows ? run('--list') : '' }).toMatchObject({
      upward_arrows: 0,
      upward_arrows_explained: 0,
      arrows_inside_cycles: 0,
      folders_without_layer: [],
    });
  });
});
