import { randomBytes } from 'node:crypto';
import { verifyPassword } from '../../server/src/auth/password';
import { loadConfig } from '../../server/src/api/app-config';
import { prepareDatabase } from '../../server/src/seed/prepare';
import { withDatabase } from '../factories/database';
import { Client } from 'pg';

/** A fresh database for prepareDatabase itself: a new PostgreSQL database, or an in-memory PGlite. */
async function freshDatabaseEnv(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) return { env: { DATA_DIR: 'memory://' }, drop: async () => undefined };
  const name = `portal_prepare_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (sql: string) => {
    const c = new Client({ connectionString: withDatabase(server, 'postgres') });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  return { env: { DATABASE_URL: withDatabase(server, name) }, drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

describe('first start of a database', () => {
  it('a production start creates the roles and no account at all, until settings name a first superuser', async () => {
    const fresh = await freshDatabaseEnv();
    try {
      const base = { NODE_ENV: 'production', SESSION_SECRET: randomBytes(32).toString('base64url'), SEED_DEMO: 'false', LOG_LEVEL: 'error', ...fresh.env };
      const db = await prepareDatabase(loadConfig(base));
      expect((await db.dataSource.query(`SELECT count(*)::int AS n FROM "user"`))[0].n).toBe(0);
      expect((await db.dataSource.query(`SELECT name FROM role ORDER BY level`)).map((r: { name: string }) => r.name)).toEqual([
        'Superuser',
        'SystemInstaller',
        'Expert',
        'Basic',
      ]);
      await db.close();

      const withAdmin = await prepareDatabase(
        loadConfig({ ...base, INITIAL_SUPERUSER_EMAIL: 'Ops@Example.org', INITIAL_SUPERUSER_PASSWORD: 'a-long-enough-password', MIGRATE_ON_START: 'true' }),
      );
      const users = await withAdmin.dataSource.query(
        `SELECT u.email, u.password, r.level, m.is_company_admin, c.name AS company
           FROM "user" u JOIN company_membership m USING (user_cuid) JOIN role r USING (role_cuid) JOIN company c USING (company_cuid)`,
      );
      expect(users).toHaveLength(1);
      expect(users[0]).toMatchObject({ email: 'ops@example.org', level: 0, is_company_admin: true, company: 'Portal Operator' });
      expect(await verifyPassword(users[0].password, 'a-long-enough-password')).toBe(true);
      await withAdmin.close();
    } finally {
      await fresh.drop();
    }
  }, 180_000);
});
