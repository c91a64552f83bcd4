import { Module } from '@nestjs/common';
import { TelemetryModule } from '../../telemetry/telemetry.module';
import { AlertEngine } from './alert-engine.service';
import { AlertWriteHooks } from './alert-write-hooks.service';

/**
 * The trigger engine (docs/alerts.md, "The trigger engine"): evaluation on data, timer and state; the write
 * checks and template autocreation as CRUD hooks (AlertWriteHooks, mounted by api/resource-routers.ts).
 * Exports AlertEngine (reload / tick / settle) and AlertWriteHooks. Kicks the OutboxSignal of the
 * global OutboxSignalModule after commits with events. Needs the global ConfigModule and DatabaseModule.
 */
@Module({
  imports: [TelemetryModule],
  providers: [AlertEngine, AlertWriteHooks],
  exports: [AlertEngine, AlertWriteHooks],
})
export class AlertEngineModule {}
