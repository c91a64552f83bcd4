import { type BeforeApplicationShutdown, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { systemJob } from '../../common/system-job';
import { AppConfig } from '../../config/config';
import { CommandService } from './command.service';
import { StepUpService } from './step-up.service';

/** Sweep step-up rows every this many rounds (the first round included). */
const SWEEP_EVERY = 60;
const JOB = systemJob('commands.worker');

/**
 * The command worker's loop: every COMMAND_POLL_MS (0 = off) one round of CommandService.tick
 * (EXPIRED, TIMEOUT, delivery to controllers that came back), never two at once on this instance;
 * every SWEEP_EVERY rounds the old step-ups go. The claims themselves are in the database (SKIP
 * LOCKED), so any number of instances run it. Stops before the application shuts down, after the
 * round in progress.
 */
@Injectable()
export class CommandsWorker implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('Commands');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private rounds = 0;

  constructor(
    private readonly commands: CommandService,
    private readonly stepUps: StepUpService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    if (this.config.COMMAND_POLL_MS <= 0) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.round()
        .catch((e) => this.logger.warn(`command round failed: ${(e as Error).message}`))
        .finally(() => (this.running = undefined));
    }, this.config.COMMAND_POLL_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async round(): Promise<void> {
    await this.commands.tick();
    if (++this.rounds % SWEEP_EVERY === 1) await this.stepUps.sweep(JOB);
  }
}
