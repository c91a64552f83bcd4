import type { DataSource } from 'typeorm';
import { hashPassword } from '../auth/password';
import { companyNamed, insertAdminUser, superuserRole, userEmailTaken } from './seed.repository';

/**
 * A production start creates no default account; the first superuser comes from the settings
 * INITIAL_SUPERUSER_EMAIL / INITIAL_SUPERUSER_PASSWORD and is created only if that email is new.
 */
export async function ensureInitialSuperuser(ds: DataSource, email: string, password: string, companyName: string): Promise<boolean> {
  const normalized = email.trim().toLowerCase();
  const hash = await hashPassword(password);
  return ds.transaction(async (tx) => {
    if (await userEmailTaken(tx, normalized)) return false;
    const role_cuid = await superuserRole(tx);
    if (!role_cuid) throw new Error('The Superuser role is missing: seed the roles first');
    const company_cuid = await companyNamed(tx, companyName);
    await insertAdminUser(tx, { email: normalized, hash, name: 'Superuser' }, role_cuid, company_cuid);
    return true;
  });
}
