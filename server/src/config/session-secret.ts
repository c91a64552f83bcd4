import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type AppConfig, ConfigError } from './config';

/** Name of the file in DATA_DIR that keeps the generated session key. */
export const SESSION_SECRET_FILE = 'session-secret';

export type SessionSecretSource = { source: 'setting' } | { source: 'file'; path: string; created: boolean };

/**
 * Makes sure the config has a session key. SESSION_SECRET wins; without it (any start but
 * production, which refuses to start without one) the key is read from `<DATA_DIR>/session-secret`,
 * created at random (48 bytes) on first start, readable and writable by the owner only (0600).
 * Sessions so survive restarts on the same data folder, and no key written in the source ever
 * seals a cookie. Several instances must share SESSION_SECRET: each data folder has its own key.
 */
export function ensureSessionSecret(config: AppConfig): SessionSecretSource {
  if (config.SESSION_SECRET) return { source: 'setting' };
  if (config.isProduction) throw new ConfigError('SESSION_SECRET is required in production (at least 32 characters)');
  const dir = resolve(config.DATA_DIR);
  const path = join(dir, SESSION_SECRET_FILE);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let created = false;
  try {
    // Written under a temporary name, then linked into place: a second process starting at the
    // same moment either sees the whole file or creates none (EEXIST), never half a key.
    const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(temporary, `${randomBytes(48).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(temporary, path);
      created = true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      unlinkSync(temporary);
    }
  } catch (e) {
    throw new ConfigError(`Could not create the session key file ${path}: ${(e as Error).message}. Set SESSION_SECRET instead.`);
  }
  // A key others could read lets them forge sessions: it is kept owner-only.
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  const secret = readFileSync(path, 'utf8').trim();
  if (secret.length < 32) {
    throw new ConfigError(`The session key file ${path} holds fewer than 32 characters: delete it to generate a new key, or set SESSION_SECRET.`);
  }
  config.SESSION_SECRET = secret;
  return { source: 'file', path, created };
}
