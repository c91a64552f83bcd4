import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { ENTITIES } from '../api/entities';
import { type Database, openDatabase, underStartupLock } from '../database/data-source';
import { DEMO_PASSWORD, DEMO_USERS, seedDemo, seedRoles } from './demo-seed';
import { ensureInitialSuperuser } from './initial-superuser';

/** Opens the configured database, migrates it, and lays down roles, demo data and the first superuser. */
export async function prepareDatabase(config: AppConfig): Promise<Database> {
  const logger = new Logger('Database');
  const db = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: config.DATABASE_POOL_SIZE, entities: ENTITIES }, false);
  logger.log(db.kind === 'embedded' ? `Embedded PGlite database in ${config.DATA_DIR}` : 'PostgreSQL database');
  // Several instances may start together: one migrates and seeds while the others wait.
  await underStartupLock(db, async () => {
    if (config.MIGRATE_ON_START) await db.dataSource.runMigrations({ transaction: 'each' });
    await seedRoles(db.dataSource);
    if (config.seedDemo && (await seedDemo(db.dataSource, { alerts: true }))) logger.log('Demo data created');
    if (config.INITIAL_SUPERUSER_EMAIL && config.INITIAL_SUPERUSER_PASSWORD) {
      const created = await ensureInitialSuperuser(
        db.dataSource,
        config.INITIAL_SUPERUSER_EMAIL,
        config.INITIAL_SUPERUSER_PASSWORD,
        config.INITIAL_COMPANY_NAME,
      );
      if (created) logger.log(`Initial superuser ${config.INITIAL_SUPERUSER_EMAIL} created`);
    }
  });
  if (config.seedDemo) {
    const lines = DEMO_USERS.map((u) => `   ${u.email.padEnd(24)} ${u.name} (level ${u.level}, ${u.company})`);
    logger.log(`Demo logins (password "${DEMO_PASSWORD}"):\n${lines.join('\n')}`);
  }
  return db;
}
