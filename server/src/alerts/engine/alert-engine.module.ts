import { Module } from '@nestjs/common';
import { TelemetryModule } from '../../telemetry/telemetry.module';
import { OutboxSignal } from '../outbox-signal';
import { AlertEngine } from './alert-engine.service';
import { AlertWriteHooks } from './alert-write-hooks.service';

/**
 * The trigger engine (docs/alerts/engine.md): evaluation on data, timer and state; the write
 * checks and template autocreation as CRUD hooks (AlertWriteHooks, mounted by api/resource-routers.ts).
 * Exports OutboxSignal (the outbox worker listens to it), AlertEngine (reload / tick / settle) and AlertWriteHooks.
 * Needs the global ConfigModule and DatabaseModule.
 */
@Module({
  imports: [TelemetryModule],
  providers: [OutboxSignal, AlertEngine, AlertWriteHooks],
  exports: [OutboxSignal, AlertEngine, AlertWriteHooks],
})
export class AlertEngineModule {}
