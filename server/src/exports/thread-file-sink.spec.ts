import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { ThreadFileSink } from './thread-file-sink';

describe('ThreadFileSink', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portal-sink-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes every chunk in order, corked or not, and closes the file', async () => {
    const path = join(dir, 'a.csv');
    const sink = new ThreadFileSink(path);
    const closed = new Promise((r) => sink.on('close', r));
    const expected: string[] = [];
    for (let i = 0; i < 2000; i++) {
      if (i % 100 === 0) sink.cork();
      const line = `${i};${'x'.repeat(i % 50)}\n`;
      expected.push(line);
      sink.write(line);
      if (i % 100 === 99) sink.uncork();
    }
    sink.end('end\n');
    await finished(sink);
    await closed;
    expect(await readFile(path, 'utf8')).toBe(`${expected.join('')}end\n`);
  });

  it('makes a missing folder, fails on a path it cannot open, and a destroyed sink leaves a closed, partial file', async () => {
    // A folder is made when missing; under a file there can be none.
    await writeFile(join(dir, 'plain'), 'x');
    const bad = new ThreadFileSink(join(dir, 'plain', 'b.csv'));
    await expect(finished(bad)).rejects.toThrow(/EEXIST|ENOTDIR/);
    const path = join(dir, 'c.csv');
    const sink = new ThreadFileSink(path);
    sink.write('first\n');
    await new Promise((r) => sink.write('', r)); // after the first write is on disk
    sink.destroy();
    await new Promise((r) => sink.on('close', r));
    expect(await readFile(path, 'utf8')).toBe('first\n');
    expect(await readdir(dir)).toContain('c.csv');
    const deep = new ThreadFileSink(join(dir, 'new', 'deeper', 'd.csv'));
    deep.end('d\n');
    await finished(deep);
    expect(await readFile(join(dir, 'new', 'deeper', 'd.csv'), 'utf8')).toBe('d\n');
    expect(deep.bytes).toBe(2);
  });
});
