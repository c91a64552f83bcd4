import type { DataSource } from 'typeorm';
import { newCuid } from '../../server/src/common/ids';

/**
 * Adds a user with one membership (password "demo-password": the demo users' hash is reused, so
 * no slow hashing in tests). Returns the new user's cuid.
 */
export async function addMember(ds: DataSource, email: string, companyName: string, level: 0 | 1 | 2 | 3, isCompanyAdmin = false): Promise<string> {
  const user_cuid = newCuid();
  await ds.transaction(async (tx) => {
    const [{ password }] = await tx.query(`SELECT password FROM "user" WHERE email = 'basic@demo.local'`);
    await tx.query(`INSERT INTO "user" (user_cuid, email, password, name) VALUES ($1, $2, $3, $4)`, [user_cuid, email, password, email]);
    await tx.query(
      `INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid, is_company_admin)
       VALUES ($1, (SELECT role_cuid FROM role WHERE level = $2), $3, (SELECT company_cuid FROM company WHERE name = $4), $5)`,
      [newCuid(), level, user_cuid, companyName, isCompanyAdmin],
    );
  });
  return user_cuid;
}
