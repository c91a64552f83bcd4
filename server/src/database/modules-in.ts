import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** A module found in a folder: its path relative to the folder, and what it exports. */
export interface FoundModule {
  file: string;
  exported: Readonly<Record<string, unknown>>;
}

/**
 * The modules of a folder whose file names match `pattern`, loaded now (synchronously) and in path
 * order: how the migrations and the entities are found without a list kept by hand.
 *
 * The same code runs on the TypeScript sources (Jest loads a `.ts` file through its transform, and
 * this file's `require` is Jest's) and on the compiled server in `dist/` (`.js`; the build empties
 * `dist/server` first, so a deleted or renamed file cannot linger there). `pattern` is matched
 * against the file's name only; declaration files and source maps never match. Not for a bundled
 * build: a bundler would have to be told about these folders.
 */
export function modulesIn(dir: string, pattern: RegExp, options: { recursive?: boolean } = {}): FoundModule[] {
  const files = (readdirSync(dir, { recursive: options.recursive ?? false }) as string[])
    .map((file) => file.split('\\').join('/'))
    .filter((file) => pattern.test(file.slice(file.lastIndexOf('/') + 1)) && !file.endsWith('.d.ts'))
    .sort();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a run-time lookup by file name; Jest's own require loads .ts
  return files.map((file) => ({ file, exported: require(join(dir, file)) as Record<string, unknown> }));
}
