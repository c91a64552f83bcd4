import type { DataSource } from 'typeorm';
import type { Actor } from '../../shared/access/policy';
import { type Scope, scopeOf } from '../../server/src/access/scope';
import { DEMO_COMPANY_NAME, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { createDemoDataSource, type TestDatabase } from '../factories/database';

/**
 * A fresh migrated database with the demo data (as test/factories/app.ts seeds it), without the
 * application: repository tests run their SQL on it directly. PGlite unless TEST_DATABASE_URL.
 */
export interface MediumWorld {
  db: TestDatabase;
  ds: DataSource;
  demo: string;
  other: string;
  /** user_cuid by demo email. */
  users: Record<string, string>;
  actor(email: string): Promise<Actor>;
  scope(email: string): Promise<Scope>;
}

export async function mediumWorld(): Promise<MediumWorld> {
  const db = await createDemoDataSource();
  const ds = db.dataSource;
  const companies = await ds.query<{ company_cuid: string; name: string }[]>(`SELECT company_cuid, name FROM company`);
  const users = Object.fromEntries(
    (await ds.query<{ user_cuid: string; email: string }[]>(`SELECT user_cuid, email FROM "user"`)).map((u) => [u.email, u.user_cuid]),
  );
  const actor = async (email: string): Promise<Actor> => {
    const memberships = await ds.query<Actor['memberships']>(
      `SELECT m.company_cuid, r.level::int AS level, m.is_company_admin FROM company_membership m JOIN role r ON r.role_cuid = m.role_cuid
        WHERE m.user_cuid = $1`,
      [users[email]],
    );
    return { user_cuid: users[email], memberships };
  };
  return {
    db,
    ds,
    demo: companies.find((c) => c.name === DEMO_COMPANY_NAME)!.company_cuid,
    other: companies.find((c) => c.name === OTHER_COMPANY_NAME)!.company_cuid,
    users,
    actor,
    scope: async (email) => scopeOf(await actor(email)),
  };
}

export const PAGE = { pagination: { page: 1, perPage: 100 }, filter: {} };
