import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '../database/database.module';

/** Liveness (no I/O) and readiness (the database answers) for load balancers and orchestrators. */
@Controller('api/health')
export class HealthController {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

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
}
