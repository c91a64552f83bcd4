import { DynamicModule, Global, Module } from '@nestjs/common';
import { instanceName, PortalMetrics } from '../common/metrics';
import { AppConfig } from './config';

/** Provides the validated settings object as `AppConfig`, and this application's metrics registry. */
@Global()
@Module({})
export class ConfigModule {
  static forConfig(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: PortalMetrics, useFactory: () => new PortalMetrics(instanceName(config.INSTANCE_NAME)) },
      ],
      exports: [AppConfig, PortalMetrics],
    };
  }
}
