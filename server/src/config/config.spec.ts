import { ConfigError, DEV_SESSION_SECRET, loadConfig } from './config';

describe('loadConfig', () => {
  it('has working defaults for the embedded start', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.embedded).toBe(true);
    expect(c.seedDemo).toBe(true);
    expect(c.DATA_DIR).toBe('./data');
    expect(c.sessionSecret).toBe(DEV_SESSION_SECRET);
  });

  it('does not seed demo data on PostgreSQL unless asked', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://x@h/db' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://x@h/db', SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });

  it('production refuses to start with a missing or short session key', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET is required/);
    expect(() => loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'short' })).toThrow(/at least 32 characters/);
    expect(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) }).sessionSecret).toBe('x'.repeat(32));
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
