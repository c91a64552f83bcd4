import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApp } from '../../server/src/app';
import { SessionCookieCodec } from '../../server/src/auth/session-cookie';
import { loadConfig } from '../../server/src/api/app-config';
import { ensureSessionSecret } from '../../server/src/config/session-secret';
import { createDemoDataSource, type TestDatabase } from '../factories/database';
import { HttpClient } from '../factories/http-client';

/** The development key that was in the source before: anyone could read it, so anyone could seal a cookie with it. */
const OLD_SOURCE_KEY = 'dev-only-session-secret-change-me-0123456789';

/**
 * The embedded start without SESSION_SECRET: the key is made at random on first start and kept in
 * the data folder (owner-only), never taken from the source.
 */
describe('session key without SESSION_SECRET (embedded start)', () => {
  let db: TestDatabase;
  let dataDir: string;
  let app: NestFastifyApplication | undefined;

  const start = async (): Promise<string> => {
    // NODE_ENV development: what `npm start` runs without settings.
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir, LOG_LEVEL: 'error', SIMULATOR: 'false', MQTT_PORT: '0' });
    app = await createApp(config, db, false);
    await app.listen(0, '127.0.0.1');
    return `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  };
  const stop = async () => {
    await app?.close();
    app = undefined;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'portal-secret-'));
    db = await createDemoDataSource();
  });
  afterAll(async () => {
    await stop();
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a cookie sealed with the old source key (a Basic user making themselves superuser)', async () => {
    const base = await start();
    try {
      const basic = new HttpClient(base);
      const login = await basic.login('basic@demo.local');
      expect(login.status).toBe(200);
      const [{ session_epoch }] = await db.dataSource.query(`SELECT session_epoch FROM "user" WHERE email = 'basic@demo.local'`);
      const ctx = structuredClone(login.body);
      for (const m of ctx.memberships) m.role.level = 0;
      ctx.isSuperUser = true;
      const now = Math.floor(Date.now() / 1000);
      const forged = new SessionCookieCodec(OLD_SOURCE_KEY).seal({ v: 1, sid: 'forged-session', ep: session_epoch, iat: now, exp: now + 3600, ctx });
      const attacker = new HttpClient(base, { cookie: `liuc=${forged}` });
      const session = await attacker.request('GET', '/api/auth/session');
      expect(session.status).toBe(401);
      expect(session.body.code).toBe('INVALID');
      const tokens = await attacker.query('authToken.list');
      expect(tokens.status).toBe(401);
    } finally {
      await stop();
    }
  });

  it('keeps the generated key in the data folder, readable by the owner only, and sessions survive a restart', async () => {
    const first = new HttpClient(await start());
    expect((await first.login('expert@demo.local')).status).toBe(200);
    await stop();
    const files = readdirSync(dataDir);
    expect(files).toContain('session-secret');
    const path = join(dataDir, 'session-secret');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const secret = readFileSync(path, 'utf8').trim();
    expect(secret.length).toBeGreaterThanOrEqual(32);

    const base = await start();
    try {
      const again = new HttpClient(base, { cookie: first.cookieHeader() });
      expect((await again.request('GET', '/api/auth/session')).status).toBe(200);
      expect(readFileSync(path, 'utf8').trim()).toBe(secret);
    } finally {
      await stop();
    }
  });

  it('two data folders get two different keys', async () => {
    const other = mkdtempSync(join(tmpdir(), 'portal-secret-'));
    try {
      const a = loadConfig({ DATA_DIR: dataDir });
      const b = loadConfig({ DATA_DIR: other });
      ensureSessionSecret(a);
      ensureSessionSecret(b);
      expect(a.sessionSecret).not.toBe(b.sessionSecret);
      expect(a.sessionSecret).toBe(readFileSync(join(dataDir, 'session-secret'), 'utf8').trim());
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

/** No key written in the source may ever seal a cookie: every secret in code and tests is generated. */
describe('no constant session key anywhere in the source', () => {
  const root = resolve(__dirname, '../..');
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.name === 'node_modules' || e.name.startsWith('.')
        ? []
        : e.isDirectory()
          ? files(join(dir, e.name))
          : /\.(ts|tsx|js|mjs)$/.test(e.name)
            ? [join(dir, e.name)]
            : [],
    );

  it('no SESSION_SECRET given as a literal, no codec built from a literal, no fallback key', () => {
    const offenders: string[] = [];
    for (const file of ['server', 'test', 'bench', 'client'].flatMap((d) => files(join(root, d)))) {
      if (file === __filename) continue;
      const text = readFileSync(file, 'utf8');
      const patterns = [
        /SESSION_SECRET\s*[:=]\s*(['"`]|\w+\s*\.repeat)/, // a setting given a written value
        /new\s+SessionCookieCodec\(\s*['"`]/, // a codec sealing with a written key
        /SESSION_SECRET\s*\?\?/, // a fallback when the setting is missing
        new RegExp(OLD_SOURCE_KEY),
      ];
      for (const p of patterns) if (p.test(text)) offenders.push(`${file.slice(root.length + 1)}: ${p}`);
    }
    expect(offenders).toEqual([]);
  });

  it('the codec refuses a short key', () => {
    expect(() => new SessionCookieCodec('short')).toThrow();
    expect(() => new SessionCookieCodec(randomBytes(32).toString('base64url'))).not.toThrow();
  });
});
