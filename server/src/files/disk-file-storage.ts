import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { assertObjectKey, FileStorage, type StoredObject } from './file-storage';

/** Hosted files in a folder of the local disk (FILES_DIR). Writes are atomic (temporary file, then rename). */
export class DiskFileStorage extends FileStorage {
  readonly kind = 'disk' as const;
  private readonly root: string;

  constructor(dir: string) {
    super();
    this.root = resolve(dir);
  }

  /** The absolute path of a key, proven to lie inside the root folder. */
  private pathOf(key: string): string {
    assertObjectKey(key);
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error('Object key escapes the files folder');
    return path;
  }

  async put(key: string, body: Buffer): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = join(dirname(path), `.${randomBytes(8).toString('hex')}.part`);
    try {
      await writeFile(temporary, body, { flag: 'wx', mode: 0o640 });
      await rename(temporary, path);
    } catch (e) {
      await rm(temporary, { force: true });
      throw e;
    }
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const path = this.pathOf(key);
    try {
      const info = await stat(path);
      if (!info.isFile()) return undefined;
      return { body: createReadStream(path), size: info.size };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
