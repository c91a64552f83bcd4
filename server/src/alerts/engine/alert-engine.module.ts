import { Module } from '@nestjs/common';
import { TelemetryModule } from '../../telemetry/telemetry.module';
import { SqlAlertEngineRepository } from './alert-engine.repository';
import { AlertEngineService } from './alert-engine.service';
import { AlertEngine } from './alert-engine.worker';
import { SqlAlertWriteHooksRepository } from './alert-write-hooks.repository';
import { AlertWriteHooks } from './alert-write-hooks.service';
import { SqlTriggerEvaluationRepository } from './trigger-evaluation.repository';

/**
 * The trigger engine (docs/alerts.md, "The trigger engine"): evaluation on data, timer and state
 * (AlertEngine, the worker: queue, timer, claims, reloads; AlertEngineService: one evaluation; the
 * rules pure in rule-step.ts, locked-judgement.ts, quiet-batch.ts; the SQL in the repositories); the
 * write checks and template autocreation as CRUD hooks (AlertWriteHooks, mounted by
 * api/resource-routers.ts). Exports AlertEngine (reload / tick / settle) and AlertWriteHooks. Kicks
 * the OutboxSignal of the global OutboxSignalModule after commits with events. Needs the global
 * ConfigModule and DatabaseModule.
 */
@Module({
  imports: [TelemetryModule],
  providers: [SqlAlertEngineRepository, SqlTriggerEvaluationRepository, SqlAlertWriteHooksRepository, AlertEngineService, AlertEngine, AlertWriteHooks],
  exports: [AlertEngine, AlertWriteHooks],
})
export class AlertEngineModule {}
