import type { EntityManager } from 'typeorm';

/**
 * The statement of the documentation's write hook: runs in the writer's transaction (`tx` first)
 * on the entry the CRUD has just created and authorized.
 */

/** The author of an entry just created is its creator. */
export async function setDocumentationAuthor(tx: EntityManager, cuid: unknown, user_cuid: string): Promise<void> {
  await tx.query(`UPDATE documentation SET user_cuid = $2 WHERE cuid = $1`, [cuid, user_cuid]);
}
