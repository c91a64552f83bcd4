import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app';
import { ConfigError, DEV_SESSION_SECRET, loadConfig } from './config/config';
import { prepareDatabase } from './database/prepare';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = new Logger('Portal');
  if (config.sessionSecret === DEV_SESSION_SECRET) {
    logger.warn('SESSION_SECRET is not set: using a development key. Set one (32+ characters) for any real use.');
  }
  const db = await prepareDatabase(config);
  const app = await createApp(config, db);
  await app.listen(config.PORT, config.HOST);
  logger.log(`Portal listening on http://localhost:${config.PORT}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('The portal could not start:', error);
  }
  process.exit(1);
});
