import { randomBytes } from 'node:crypto';
import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ALERT_DELIVERY_PROVIDERS } from '../../server/src/alerts/delivery/alert-delivery.module';
import { ChannelSenderRegistry } from '../../server/src/alerts/delivery/sender-registry';
import { OutboxSignalModule } from '../../server/src/alerts/outbox-signal.module';
import { ENTITIES } from '../../server/src/api/entities';
import { loadConfig } from '../../server/src/api/app-config';
import { ConfigModule } from '../../server/src/config/config.module';
import { openDatabase, type Database } from '../../server/src/database/data-source';
import { DatabaseModule } from '../../server/src/database/database.module';
import { LiveEventsService } from '../../server/src/alerts/portal/live-events.service';
import { LiveEventsRepository } from '../../server/src/alerts/portal/live-events.repository';
import { startTestApp, type TestApp } from './app';
import { RecordingPeer, RecordingSender } from './recording-sender';

/**
 * Two outbox workers on one database, for a describe block: A is the whole application, B a second
 * outbox worker (its own Nest context, and on PostgreSQL its own connection pool and LISTEN), as a
 * second server would run it; on the embedded database B shares A's PGlite. Both send Telegram
 * messages through a RecordingSender to one local peer. Started before the block's tests, closed
 * after them; read `t` and `b` inside tests.
 */
export function twoOutboxInstances(settings: Record<string, string>): {
  readonly t: TestApp;
  readonly b: INestApplicationContext;
  peer: RecordingPeer;
  /** A query on A's database. */
  q: (sql: string, params?: unknown[]) => Promise<any>;
} {
  const peer = new RecordingPeer();
  let t: TestApp | undefined;
  let b: INestApplicationContext | undefined;
  let dbB: Database | undefined;
  beforeAll(async () => {
    await peer.start();
    t = await startTestApp(settings, { liveOverPostgres: true });
    const url = (t.db.dataSource.options as { url?: string }).url;
    const configB = loadConfig({
      NODE_ENV: 'test',
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'error',
      ...settings,
      ...(url ? { DATABASE_URL: url } : {}),
    });
    dbB = url ? await openDatabase({ url, poolSize: 5, entities: ENTITIES }, false) : undefined;
    @Module({
      imports: [ConfigModule.forConfig(configB), DatabaseModule.forDatabase(dbB ?? t.db, false), OutboxSignalModule],
      providers: [LiveEventsRepository, LiveEventsService, ...ALERT_DELIVERY_PROVIDERS],
    })
    class SecondInstance {}
    b = await NestFactory.createApplicationContext(SecondInstance, { logger: ['error'] });
    await b.init();
    for (const ctx of [t.app, b]) ctx.get(ChannelSenderRegistry).use([new RecordingSender('TELEGRAM', () => peer.url)]);
  });
  afterAll(async () => {
    await b?.close();
    await dbB?.close();
    await t?.close();
    await peer.stop();
  });
  return {
    get t() {
      return t!;
    },
    get b() {
      return b!;
    },
    peer,
    q: (sql, params = []) => t!.db.dataSource.query(sql, params),
  };
}
