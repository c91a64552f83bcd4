import { Module } from '@nestjs/common';
import { TokensModule } from '../tokens/tokens.module';
import { AppConfig } from '../config/config';
import { ControllerOnlineStateRepository } from './controller-online-state.repository';
import { ControllerOnlineStateService } from './controller-online-state.service';
import { ControllerOnlineStateWorker } from './controller-online-state.worker';
import { ControllerDirectoryRepository } from './controller-directory.repository';
import { ControllerDirectoryService } from './controller-directory.service';
import { IngestHttpService } from './ingest-http.service';
import { IngestService } from './ingest.service';
import { loadTelemetrySettings, systemClock, TELEMETRY_CLOCK, TELEMETRY_SETTINGS } from './telemetry.config';
import { TelemetryQueryRepository } from './telemetry-query.repository';
import { TelemetryQueryService } from './telemetry-query.service';
import { TelemetryRetentionRepository } from './telemetry-retention.repository';
import { TelemetryRetentionService } from './telemetry-retention.service';
import { TelemetryRetentionWorker } from './telemetry-retention.worker';
import { TelemetryWriterRepository } from './telemetry-writer.repository';
import { TelemetryWriter } from './telemetry-writer.service';

/**
 * Telemetry: ingest (HTTP here; MQTT through the gateway's GatewayModule), rollups and their
 * retention, chart queries, controller online state. Needs the global ConfigModule, DatabaseModule and
 * SystemsModule. Settings come from `TELEMETRY_SETTINGS` (read from the environment by
 * loadTelemetrySettings); tests override it and `TELEMETRY_CLOCK`.
 */
@Module({
  imports: [TokensModule],
  providers: [
    {
      provide: TELEMETRY_SETTINGS,
      useFactory: (config: AppConfig) => loadTelemetrySettings(config.env, config.embedded),
      inject: [AppConfig],
    },
    { provide: TELEMETRY_CLOCK, useValue: systemClock },
    ControllerDirectoryRepository,
    ControllerDirectoryService,
    TelemetryWriterRepository,
    TelemetryWriter,
    ControllerOnlineStateRepository,
    ControllerOnlineStateService,
    ControllerOnlineStateWorker,
    IngestService,
    IngestHttpService,
    TelemetryQueryRepository,
    TelemetryQueryService,
    TelemetryRetentionRepository,
    TelemetryRetentionService,
    TelemetryRetentionWorker,
  ],
  exports: [IngestService, TelemetryWriter, TelemetryQueryService, ControllerOnlineStateService, TELEMETRY_SETTINGS, TELEMETRY_CLOCK],
})
export class TelemetryModule {}
