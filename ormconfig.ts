import 'reflect-metadata';
import { loadConfig } from './server/src/api/app-config';
import { ENTITIES } from './server/src/api/entities';
import { createDataSource } from './server/src/database/data-source';

/**
 * The TypeORM CLI's data source (`npm run migration:run`, `migration:show`, `migration:revert`).
 * Uses DATABASE_URL when set, otherwise the embedded PGlite in DATA_DIR, like the server.
 */
const config = loadConfig();
export default createDataSource({
  url: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  poolSize: config.DATABASE_POOL_SIZE,
  logging: true,
  entities: ENTITIES,
}).then((db) => db.dataSource);
