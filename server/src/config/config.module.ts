import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './config';

/** Provides the validated settings object as `AppConfig`. */
@Global()
@Module({})
export class ConfigModule {
  static forConfig(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: AppConfig, useValue: config }], exports: [AppConfig] };
  }
}
