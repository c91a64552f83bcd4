import { DynamicModule, Global, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Database } from './data-source';
import { SharedSignals } from './shared-signals';

/** Injection token of the initialized TypeORM DataSource. */
export const DATA_SOURCE = Symbol('DATA_SOURCE');
export const DATABASE = Symbol('DATABASE');

/** Makes an already opened (and migrated) database available to every module. */
@Global()
@Module({})
export class DatabaseModule {
  static forDatabase(db: Database, closeOnShutdown: boolean): DynamicModule {
    const signals = new SharedSignals(db);
    signals.pool = (sql, params) => db.dataSource.query(sql, params);
    class DatabaseLifecycle implements OnModuleInit, OnApplicationShutdown {
      async onModuleInit(): Promise<void> {
        await signals.start();
      }
      async onApplicationShutdown(): Promise<void> {
        await signals.close();
        if (closeOnShutdown) await db.close();
      }
    }
    return {
      module: DatabaseModule,
      providers: [
        { provide: DATABASE, useValue: db },
        { provide: DATA_SOURCE, useValue: db.dataSource },
        { provide: SharedSignals, useValue: signals },
        DatabaseLifecycle,
      ],
      exports: [DATABASE, DATA_SOURCE, SharedSignals],
    };
  }
}
