import type { EntityManager } from 'typeorm';
import { newCuid } from '../common/ids';

/**
 * The statement of the company resource's create hook: runs in the creator's transaction (`tx`
 * first), for the company the CRUD has just created and authorized.
 */

/** The creator becomes an admin member of the company they made, at `level` (their best, at most Basic). */
export async function addCreatorMembership(tx: EntityManager, user_cuid: string, company_cuid: unknown, level: number): Promise<void> {
  await tx.query(
    `INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid, is_company_admin)
     VALUES ($1, (SELECT role_cuid FROM role WHERE level = $2), $3, $4, true)`,
    [newCuid(), level, user_cuid, company_cuid],
  );
}
