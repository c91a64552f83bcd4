import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app';
import { loadConfig } from './api/app-config';
import { ConfigError } from './config/config';
import { ensureSessionSecret } from './config/session-secret';
import { Readiness } from './health/readiness';
import { prepareDatabase } from './seed/prepare';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = new Logger('Portal');
  const key = ensureSessionSecret(config);
  if (key.source === 'file') {
    logger.log(`SESSION_SECRET is not set: session key ${key.created ? 'generated into' : 'read from'} ${key.path} (owner-only).`);
    if (!config.embedded) {
      logger.warn('Several instances on one PostgreSQL database need the same SESSION_SECRET: each data folder has its own key.');
    }
  }
  const db = await prepareDatabase(config);
  const app = await createApp(config, db);
  // Before Nest's own shutdown listener: readiness answers 503 from the signal on (draining).
  const readiness = app.get(Readiness);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.prependListener(signal, () => readiness.startDraining());
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
