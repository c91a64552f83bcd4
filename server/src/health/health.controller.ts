import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { OutboxWorker, type OutboxStats } from '../alerts/delivery/outbox.worker';
import { Readiness, type ReadinessReport } from './readiness';

/** Why an instance is not ready, for the answer's message (the first part that is not). */
const NOT_READY_MESSAGES = {
  instance: 'This instance is shutting down',
  database: 'The database does not answer',
  broker: 'The MQTT broker is not reachable',
} as const;

/**
 * Liveness (the process answers, no I/O) and readiness (it should get new requests) for load
 * balancers and orchestrators; docs/metrics.md.
 */
@Controller('api/health')
export class HealthController {
  constructor(
    private readonly readiness: Readiness,
    private readonly outbox: OutboxWorker,
  ) {}

  /** Liveness: answers while the process runs, also while it drains. */
  @Get()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('live')
  alive(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: 200 with each part's state, or 503 naming the parts that are not ready (no error details). */
  @Get('ready')
  async ready(): Promise<{ status: 'ok'; checks: ReadinessReport['checks'] }> {
    const report = await this.readiness.check();
    if (report.ready) return { status: 'ok', checks: report.checks };
    throw new ServiceUnavailableException({
      code: 'UNAVAILABLE',
      message: NOT_READY_MESSAGES[report.not_ready[0]],
      status: report.checks.instance === 'draining' ? 'draining' : 'not_ready',
      not_ready: report.not_ready,
      checks: report.checks,
    });
  }

  /** The alert outbox: depth (events and deliveries waiting), lag (age of the oldest PENDING event), duplicates. Counts only, no tenant data. */
  @Get('outbox')
  async outboxStats(): Promise<OutboxStats> {
    return this.outbox.stats();
  }
}
