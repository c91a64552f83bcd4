import { DynamicModule, Global, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Database } from './data-source';

/** Injection token of the initialized TypeORM DataSource. */
export const DATA_SOURCE = Symbol('DATA_SOURCE');
export const DATABASE = Symbol('DATABASE');

/** Makes an already opened (and migrated) database available to every module. */
@Global()
@Module({})
export class DatabaseModule {
  static forDatabase(db: Database, closeOnShutdown: boolean): DynamicModule {
    class DatabaseLifecycle implements OnApplicationShutdown {
      async onApplicationShutdown(): Promise<void> {
        if (closeOnShutdown) await db.close();
      }
    }
    return {
      module: DatabaseModule,
      providers: [
        { provide: DATABASE, useValue: db },
        { provide: DATA_SOURCE, useValue: db.dataSource },
        DatabaseLifecycle,
      ],
      exports: [DATABASE, DATA_SOURCE],
    };
  }
}
