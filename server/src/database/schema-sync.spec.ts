import 'reflect-metadata';
import { createTestDataSource, type TestDatabase } from '../../../test/factories/database';

/**
 * The migrations are the schema (synchronize is off everywhere). These tests prove that the
 * entity classes describe exactly what the migrations create, that the initial migration can be
 * reverted to an empty schema and applied again, and that the database-side rules the server
 * relies on (session revocation triggers, time partitions) behave.
 * Runs on PostgreSQL when TEST_DATABASE_URL is set, otherwise on an in-memory PGlite.
 */
describe('database schema', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDataSource();
  });

  afterAll(async () => {
    await db?.close();
  });

  const query = <T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]> => db.dataSource.query(sql, params);

  const pendingSchemaChanges = async (): Promise<string[]> => {
    const sqlInMemory = await db.dataSource.driver.createSchemaBuilder().log();
    return sqlInMemory.upQueries.map((q) => q.query);
  };

  it('has nothing for TypeORM to synchronize after the migrations', async () => {
    expect(await pendingSchemaChanges()).toEqual([]);
  });

  it('notices when the database and the entities disagree (so the check above can fail)', async () => {
    await query(`DROP INDEX "ix_system_name"`);
    try {
      expect(await pendingSchemaChanges()).toEqual([expect.stringContaining('CREATE INDEX "ix_system_name"')]);
    } finally {
      await query(`CREATE INDEX "ix_system_name" ON "system" ("name")`);
    }
    expect(await pendingSchemaChanges()).toEqual([]);
  });

  it('has a table for every entity', async () => {
    const tables = await query<{ relname: string }>(
      `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition`,
    );
    const names = new Set(tables.map((t) => t.relname));
    const missing = db.dataSource.entityMetadatas.map((m) => m.tableName).filter((t) => !names.has(t));
    expect(missing).toEqual([]);
  });

  describe('session epoch', () => {
    const epoch = async (user_cuid: string): Promise<number> =>
      (await query<{ session_epoch: number }>(`SELECT session_epoch FROM "user" WHERE user_cuid = $1`, [user_cuid]))[0].session_epoch;

    // A fresh test database holds no roles: this block owns role level 3 (and moves it to 2).
    beforeAll(async () => {
      await query(`INSERT INTO role (role_cuid, name, level) VALUES ('se-role', 'SE Basic', 3)`);
      await query(`INSERT INTO company (company_cuid, name) VALUES ('se-company-a', 'SE A'), ('se-company-b', 'SE B')`);
      await query(`INSERT INTO "user" (user_cuid, email, name) VALUES ('se-user-1', 'se1@test.local', 'SE One')`);
    });

    it('moves on when credentials or the inactive flag change, not on a rename', async () => {
      const start = await epoch('se-user-1');
      await query(`UPDATE "user" SET name = 'SE Renamed' WHERE user_cuid = 'se-user-1'`);
      expect(await epoch('se-user-1')).toBe(start);
      await query(`UPDATE "user" SET password = 'new-hash' WHERE user_cuid = 'se-user-1'`);
      expect(await epoch('se-user-1')).toBe(start + 1);
      await query(`UPDATE "user" SET email = 'se1b@test.local' WHERE user_cuid = 'se-user-1'`);
      expect(await epoch('se-user-1')).toBe(start + 2);
      await query(`UPDATE "user" SET inactive = true WHERE user_cuid = 'se-user-1'`);
      expect(await epoch('se-user-1')).toBe(start + 3);
      const [row] = await query<{ inactivated_at: Date | null }>(`SELECT inactivated_at FROM "user" WHERE user_cuid = 'se-user-1'`);
      expect(row.inactivated_at).toBeInstanceOf(Date);
      await query(`UPDATE "user" SET inactive = false WHERE user_cuid = 'se-user-1'`);
    });

    it('moves on when a membership is added, changed or removed', async () => {
      const start = await epoch('se-user-1');
      await query(
        `INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid)
         VALUES ('se-membership-1', 'se-role', 'se-user-1', 'se-company-a')`,
      );
      expect(await epoch('se-user-1')).toBe(start + 1);
      await query(`UPDATE company_membership SET is_company_admin = true WHERE membership_cuid = 'se-membership-1'`);
      expect(await epoch('se-user-1')).toBe(start + 2);
      await query(`DELETE FROM company_membership WHERE membership_cuid = 'se-membership-1'`);
      expect(await epoch('se-user-1')).toBe(start + 3);
    });

    it('moves on for every holder of a role whose level changes', async () => {
      await query(
        `INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid)
         VALUES ('se-membership-2', 'se-role', 'se-user-1', 'se-company-b')`,
      );
      const start = await epoch('se-user-1');
      await query(`UPDATE role SET description = 'level unchanged' WHERE role_cuid = 'se-role'`);
      expect(await epoch('se-user-1')).toBe(start);
      await query(`UPDATE role SET level = 2 WHERE role_cuid = 'se-role'`);
      expect(await epoch('se-user-1')).toBe(start + 1);
      await query(`UPDATE role SET level = 3 WHERE role_cuid = 'se-role'`);
      expect(await epoch('se-user-1')).toBe(start + 2);
    });

    it('refuses upper-case e-mail addresses (uniqueness is case-insensitive by storing lower case)', async () => {
      await expect(query(`INSERT INTO "user" (user_cuid, email, name) VALUES ('se-user-2', 'SE1B@test.local', 'Upper')`)).rejects.toThrow(
        /ck_user_email_lower/,
      );
    });
  });

  describe('time partitions', () => {
    beforeAll(async () => {
      await query(`INSERT INTO company (company_cuid, name) VALUES ('tp-company', 'TP')`);
      await query(`INSERT INTO system (system_cuid, company_cuid, name) VALUES ('tp-system', 'tp-company', 'TP system')`);
    });

    it('files rows by month, keeps rows outside the prepared months, and ignores duplicates', async () => {
      const insert = `INSERT INTO system_standard_value_log (system_cuid, "timestamp", total_pv_kwh)
        SELECT 'tp-system', ts, v FROM unnest($1::timestamptz[], $2::numeric[]) AS x(ts, v) ON CONFLICT DO NOTHING`;
      await query(insert, [
        ['2025-06-01T10:00:00Z', '2035-01-10T00:00:00Z'],
        [1.5, 2],
      ]);
      await query(insert, [['2025-06-01T10:00:00Z'], [99]]);
      const rows = await query<{ part: string; n: number; total: string }>(
        `SELECT tableoid::regclass::text AS part, count(*)::int AS n, max(total_pv_kwh)::text AS total
           FROM system_standard_value_log WHERE system_cuid = 'tp-system' GROUP BY 1 ORDER BY 1`,
      );
      expect(rows).toEqual([
        { part: 'system_standard_value_log_default', n: 1, total: '2.000' },
        { part: 'system_standard_value_log_p202506', n: 1, total: '1.500' },
      ]);
    });

    it('adds later months with ensure_monthly_partitions, moving their rows out of the default partition', async () => {
      const [{ created }] = await query<{ created: number }>(`SELECT ensure_monthly_partitions('system_standard_value_log', DATE '2035-01-01', 2) AS created`);
      const [{ again }] = await query<{ again: number }>(`SELECT ensure_monthly_partitions('system_standard_value_log', DATE '2035-01-01', 2) AS again`);
      expect([created, again]).toEqual([2, 0]);
      const rows = await query<{ part: string }>(
        `SELECT tableoid::regclass::text AS part FROM system_standard_value_log
          WHERE system_cuid = 'tp-system' AND "timestamp" >= '2035-01-01T00:00:00Z'`,
      );
      expect(rows).toEqual([{ part: 'system_standard_value_log_p203501' }]);
      // Deleting the system still cascades into the new partition.
      await query(`DELETE FROM system WHERE system_cuid = 'tp-system'`);
      const [{ n }] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM system_standard_value_log`);
      expect(n).toBe(0);
      expect(await pendingSchemaChanges()).toEqual([]);
    });
  });

  it('reverts to an empty schema and migrates again to the same schema', async () => {
    // Every migration's down, newest first.
    for (let i = 0; i < db.dataSource.migrations.length; i++) await db.dataSource.undoLastMigration({ transaction: 'each' });
    const leftovers = await query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
          AND c.relname NOT LIKE $1
       UNION ALL
       SELECT t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
        WHERE n.nspname = current_schema() AND t.typtype = 'e'
       UNION ALL
       SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = current_schema()`,
      [`${db.dataSource.options.migrationsTableName ?? 'migrations'}%`],
    );
    expect(leftovers).toEqual([]);
    await db.dataSource.runMigrations({ transaction: 'each' });
    expect(await pendingSchemaChanges()).toEqual([]);
  });
});
