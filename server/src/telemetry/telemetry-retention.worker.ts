import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { TELEMETRY_SETTINGS, type TelemetrySettings } from './telemetry.config';
import { TelemetryRetentionService } from './telemetry-retention.service';

/**
 * Runs the retention sweep every TELEMETRY_RETENTION_INTERVAL_MINUTES (0: never); a failed sweep
 * is logged and tried again next time; the timer never keeps the process alive; at shutdown the
 * timer stops and a sweep under way is waited for.
 */
@Injectable()
export class TelemetryRetentionWorker implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('TelemetryRetention');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly retention: TelemetryRetentionService,
    @Inject(TELEMETRY_SETTINGS) private readonly settings: TelemetrySettings,
  ) {}

  onModuleInit(): void {
    const minutes = this.settings.retention.intervalMinutes;
    if (minutes > 0) {
      this.timer = setInterval(() => void this.retention.run().catch((e) => this.logger.warn(`retention failed: ${(e as Error).message}`)), minutes * 60_000);
      this.timer.unref();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.retention.settled();
  }
}
