import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '../database/database.module';
import { OutboxWorker, type OutboxStats } from '../alerts/delivery/outbox-worker.service';

/** Liveness (no I/O) and readiness (the database answers) for load balancers and orchestrators. */
@Controller('api/health')
export class HealthController {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly outbox: OutboxWorker,
  ) {}

  @Get()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(): Promise<{ status: 'ok' }> {
    try {
      await this.ds.query('SELECT 1');
      return { status: 'ok' };
    } catch {
      throw new ServiceUnavailableException({ code: 'UNAVAILABLE', message: 'The database does not answer' });
    }
  }

  /** The alert outbox: depth (events and deliveries waiting), lag (age of the oldest PENDING event), duplicates. Counts only, no tenant data. */
  @Get('outbox')
  async outboxStats(): Promise<OutboxStats> {
    return this.outbox.stats();
  }
}
