import 'reflect-metadata';
import { loadConfig } from '../api/app-config';
import { ENTITIES } from '../api/entities';
import { openDatabase } from '../database/data-source';
import { DEMO_PASSWORD, DEMO_USERS, seedDemo, seedRoles } from './demo-seed';

/** `npm run seed`: roles plus the demo companies, users, catalogue and systems (idempotent). */
async function run(): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, entities: ENTITIES });
  try {
    await seedRoles(db.dataSource);
    const created = await seedDemo(db.dataSource, { alerts: true });
    console.log(created ? 'Demo data created.' : 'Demo data already present.');
    console.log(`Demo logins (password "${DEMO_PASSWORD}"): ${DEMO_USERS.map((u) => u.email).join(', ')}`);
  } finally {
    await db.close();
  }
}

run().catch((e: unknown) => {
  console.error('Seeding failed:', e);
  process.exit(1);
});
