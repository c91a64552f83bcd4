import type { DataSource } from 'typeorm';
import { hashPassword } from '../auth/password';
import { newCuid } from '../common/ids';

/**
 * A production start creates no default account; the first superuser comes from the settings
 * INITIAL_SUPERUSER_EMAIL / INITIAL_SUPERUSER_PASSWORD and is created only if that email is new.
 */
export async function ensureInitialSuperuser(
  ds: DataSource,
  email: string,
  password: string,
  companyName: string,
): Promise<boolean> {
  const normalized = email.trim().toLowerCase();
  const hash = await hashPassword(password);
  return ds.transaction(async (tx) => {
    const existing = await tx.query(`SELECT 1 FROM "user" WHERE email = $1`, [normalized]);
    if (existing.length) return false;
    const [role] = (await tx.query(`SELECT role_cuid FROM role WHERE level = 0`)) as { role_cuid: string }[];
    if (!role) throw new Error('The Superuser role is missing: seed the roles first');
    let [company] = (await tx.query(`SELECT company_cuid FROM company WHERE name = $1`, [companyName])) as { company_cuid: string }[];
    if (!company) {
      company = { company_cuid: newCuid() };
      await tx.query(`INSERT INTO company (company_cuid, name) VALUES ($1, $2)`, [company.company_cuid, companyName]);
    }
    const user_cuid = newCuid();
    await tx.query(`INSERT INTO "user" (user_cuid, email, password, name) VALUES ($1, $2, $3, $4)`, [
      user_cuid,
      normalized,
      hash,
      'Superuser',
    ]);
    await tx.query(
      `INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid, is_company_admin)
       VALUES ($1, $2, $3, $4, true)`,
      [newCuid(), role.role_cuid, user_cuid, company.company_cuid],
    );
    return true;
  });
}
