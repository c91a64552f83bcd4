import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { loadConfig } from '../api/app-config';
import { ConfigError } from './config';

describe('loadConfig', () => {
  const secret = () => randomBytes(32).toString('base64url');

  it('has working defaults for the embedded start, with no built-in session key', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.embedded).toBe(true);
    expect(c.seedDemo).toBe(true);
    expect(c.DATA_DIR).toBe('./data');
    expect(c.SESSION_SECRET).toBeUndefined();
    expect(() => c.sessionSecret).toThrow(/No session key/);
  });

  it('keeps hosted files in <DATA_DIR>/files unless FILES_DIR says otherwise', () => {
    expect(loadConfig({}).FILES_DIR).toBe(join('./data', 'files'));
    expect(loadConfig({ DATA_DIR: '/srv/portal' }).FILES_DIR).toBe('/srv/portal/files');
    expect(loadConfig({ DATA_DIR: '/srv/portal', FILES_DIR: '' }).FILES_DIR).toBe('/srv/portal/files');
    expect(loadConfig({ DATA_DIR: '/srv/portal', FILES_DIR: '/mnt/files' }).FILES_DIR).toBe('/mnt/files');
  });

  it('does not seed demo data on PostgreSQL unless asked', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://x@h/db' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://x@h/db', SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });

  it('production refuses to start with a missing or short session key', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET is required/);
    expect(() => loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secret().slice(0, 10) })).toThrow(/at least 32 characters/);
    const key = secret();
    expect(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: key }).sessionSecret).toBe(key);
  });

  it('lists every bad value at once', () => {
    try {
      loadConfig({ PORT: 'eighty', NODE_ENV: 'staging', INITIAL_SUPERUSER_EMAIL: 'root@x.io' });
      throw new Error('expected a ConfigError');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const msg = (e as Error).message;
      expect(msg).toMatch(/PORT/);
      expect(msg).toMatch(/NODE_ENV/);
      expect(msg).toMatch(/must be set together/);
    }
  });
});
