import { DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from './accounts/accounts.module';
import { AlertDeliveryModule } from './alerts/delivery/alert-delivery.module';
import { AlertEngineModule } from './alerts/engine/alert-engine.module';
import { OutboxSignalModule } from './alerts/outbox-signal.module';
import { AlertChannelsModule } from './alerts/channels/channels.module';
import { AlarmsModule } from './alerts/alarms/alarms.module';
import { SystemStatusModule } from './control/status/status.module';
import { AuthModule } from './auth/auth.module';
import { BrandingModule } from './branding/branding.module';
import { BudgetsModule } from './budgets/budgets.module';
import { CompaniesModule } from './companies/companies.module';
import { ControlModule } from './control/control.module';
import { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { CrudModule } from './crud/crud.module';
import type { Database } from './database/data-source';
import { DatabaseModule } from './database/database.module';
import { FilesModule } from './files/files.module';
import { FleetModule } from './fleet/fleet.module';
import { ExportsModule } from './exports/exports.module';
import { HealthModule } from './health/health.module';
import { SystemsModule } from './systems/systems.module';
import { TelemetryModule } from './telemetry/telemetry.module';
import { GatewayModule } from './gateway/gateway.module';
import { TrpcModule } from './api/trpc.module';
import { UsersModule } from './users/users.module';

@Module({})
export class AppModule {
  static register(config: AppConfig, db: Database, ownsDatabase = true): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forConfig(config),
        DatabaseModule.forDatabase(db, ownsDatabase),
        BudgetsModule,
        AuthModule,
        BrandingModule,
        FilesModule,
        SystemsModule,
        CrudModule,
        UsersModule,
        CompaniesModule,
        TelemetryModule,
        GatewayModule,
        AlertEngineModule,
        AlertChannelsModule,
        AlarmsModule,
        ControlModule,
        SystemStatusModule,
        FleetModule,
        ExportsModule,
        AccountsModule,
        TrpcModule,
        OutboxSignalModule,
        AlertDeliveryModule,
        HealthModule,
      ],
    };
  }
}
