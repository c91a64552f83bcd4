import { readdirSync, readFileSync } from 'node:fs';
import { GENERATED_INPUT_SHARDS } from './generated-inputs';

// Every shard has its spec file, so no procedure is left out of the generated-inputs test.
it('one spec file per generated-inputs shard', () => {
  const files = readdirSync(__dirname)
    .filter((f) => /^generated-inputs-\d+\.spec\.ts$/.test(f))
    .sort();
  expect(files).toEqual(Array.from({ length: GENERATED_INPUT_SHARDS }, (_, i) => `generated-inputs-${i + 1}.spec.ts`));
  for (const [i, f] of files.entries()) {
    expect(readFileSync(`${__dirname}/${f}`, 'utf8')).toContain(`describeGeneratedInputs(${i})`);
  }
});
