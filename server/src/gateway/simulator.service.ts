import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '../database/database.module';
import { startEmbeddedSimulator } from '../simulator/embedded';
import { IngestService } from '../telemetry/ingest.service';
import { MqttIngestService } from './mqtt-ingest.service';
import { TELEMETRY_SETTINGS, type TelemetrySettings } from '../telemetry/telemetry.config';

/** Runs the small built-in simulator when SIMULATOR is on (default: embedded database only). */
@Injectable()
export class SimulatorService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Simulator');
  private stop?: () => Promise<void>;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(TELEMETRY_SETTINGS) private readonly settings: TelemetrySettings,
    private readonly ingest: IngestService,
    private readonly mqtt: MqttIngestService,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.settings.simulator.enabled) return;
    // After the broker and the HTTP server are up.
    this.timer = setTimeout(() => void this.begin(), 1000);
    this.timer.unref();
  }

  private async begin(): Promise<void> {
    try {
      this.stop = await startEmbeddedSimulator(this.ds, {
        mqttPort: this.mqtt.mode === 'embedded' ? this.mqtt.listeningPort : 0,
        topicPrefix: this.settings.mqtt.topicPrefix,
        intervalSeconds: this.settings.simulator.intervalSeconds,
        backfillHours: this.settings.simulator.backfillHours,
        direct: async (controller_id, kind, payload) => {
          const controller = await this.ingest.known(controller_id);
          if (kind === 'heartbeat') {
            this.ingest.heartbeat(controller, payload, 'direct');
            return undefined;
          }
          return this.ingest.telemetry(controller, payload, 'direct');
        },
        log: (m) => this.logger.log(m),
      });
    } catch (error) {
      this.logger.warn(`the simulator could not start: ${(error as Error).message}`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await this.stop?.();
  }
}
