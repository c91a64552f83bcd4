import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ControllerOnlineStateService } from './controller-online-state.service';
import { TELEMETRY_SETTINGS, type TelemetrySettings } from './telemetry.config';

/**
 * The presence sweep's loop: every TELEMETRY online sweepSeconds (0 = off) one sweep of
 * ControllerOnlineStateService (silent controllers OFFLINE, calmed-down ones ONLINE); the service
 * never runs two at once. Stops before the application shuts down, after the sweep in progress.
 */
@Injectable()
export class ControllerOnlineStateWorker implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('OnlineState');
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<unknown>;

  constructor(
    private readonly states: ControllerOnlineStateService,
    @Inject(TELEMETRY_SETTINGS) private readonly settings: TelemetrySettings,
  ) {}

  onModuleInit(): void {
    const seconds = this.settings.online.sweepSeconds;
    if (seconds <= 0) return;
    this.timer = setInterval(() => {
      this.sweeping = this.states.sweep().catch((e) => this.logger.warn(`sweep failed: ${(e as Error).message}`));
    }, seconds * 1000);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }
}
