import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ALERT_DELIVERY_PROVIDERS } from '../../server/src/alerts/delivery/alert-delivery.module';
import { ChannelSenderRegistry } from '../../server/src/alerts/delivery/sender-registry';
import { OutboxSignalModule } from '../../server/src/alerts/outbox-signal.module';
import { loadConfig } from '../../server/src/api/app-config';
import { ConfigModule } from '../../server/src/config/config.module';
import { openDatabase } from '../../server/src/database/data-source';
import { DatabaseModule } from '../../server/src/database/database.module';
import { LiveEventsService } from '../../server/src/alerts/portal/live-events.service';
import { LiveEventsRepository } from '../../server/src/alerts/portal/live-events.repository';
import { RecordingSender } from './recording-sender';

/**
 * An outbox worker in its own process, for the kill -9 test (built to
 * dist/test/factories/outbox-worker-process.js): the real OutboxWorker on DATABASE_URL, sending
 * TELEGRAM channels' messages through a RecordingSender to PEER_URL. Settings come from the
 * environment like the server's. Once AlertChannelsModule is merged, the same test can spawn the
 * built server itself (dist/server/src/main.js) with TELEGRAM_API_URL pointed at a Bot API peer.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  if (!config.DATABASE_URL || !process.env.PEER_URL) throw new Error('DATABASE_URL and PEER_URL are required');
  const db = await openDatabase({ url: config.DATABASE_URL, poolSize: 5 }, false);
  @Module({
    imports: [ConfigModule.forConfig(config), DatabaseModule.forDatabase(db, true), OutboxSignalModule],
    providers: [LiveEventsRepository, LiveEventsService, ...ALERT_DELIVERY_PROVIDERS],
  })
  class OutboxProcess {}
  const app = await NestFactory.createApplicationContext(OutboxProcess, { logger: ['error', 'warn'] });
  const peer = process.env.PEER_URL;
  app.get(ChannelSenderRegistry).use([new RecordingSender('TELEGRAM', () => peer)]);
  app.enableShutdownHooks();
  await app.init();
  process.stdout.write('outbox worker ready\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
