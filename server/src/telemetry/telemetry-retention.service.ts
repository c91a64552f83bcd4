import { Inject, Injectable, Logger } from '@nestjs/common';
import { systemJob } from '../common/system-job';
import { ROLLUP_RESOLUTIONS, type RollupResolution } from './rollups';
import { type Clock, TELEMETRY_CLOCK, TELEMETRY_SETTINGS, type TelemetrySettings } from './telemetry.config';
import { TelemetryRetentionRepository } from './telemetry-retention.repository';

const DAY_MS = 86_400_000;
const CHUNK = 20_000;
const JOB = systemJob('telemetry-retention');

export interface RetentionReport {
  raw: number;
  '5m': number;
  '1h': number;
  '1d': number;
}

/** The cutoff of each resolution (older goes), or undefined where its retention is 0 (kept forever). */
export function retentionCutoffs(now: Date, r: TelemetrySettings['retention']): { raw?: Date } & Partial<Record<RollupResolution, Date>> {
  const before = (days: number) => (days > 0 ? new Date(now.getTime() - days * DAY_MS) : undefined);
  return { raw: before(r.rawDays), '5m': before(r.fiveMinuteDays), '1h': before(r.hourDays), '1d': before(r.dayDays) };
}

/** The first instant after a monthly partition (`parameter_log_pYYYYMM`): the first of the next month, UTC. */
export function partitionEnd(relname: string): number {
  const y = Number(relname.slice(-6, -2));
  const m = Number(relname.slice(-2));
  return Date.UTC(y, m, 1);
}

/** Day-sized steps from `oldest` up to `cutoff` (each delete is bounded to about a day of rows). */
export function daySteps(oldest: Date | null, cutoff: Date): Date[] {
  const steps: Date[] = [];
  for (let t = oldest ? oldest.getTime() : cutoff.getTime(); t < cutoff.getTime();) {
    t = Math.min(t + DAY_MS, cutoff.getTime());
    steps.push(new Date(t));
  }
  return steps;
}

/**
 * Deletes telemetry older than its resolution's retention (TELEMETRY_RETENTION_*_DAYS; 0 keeps
 * it forever). Raw months wholly past the cutoff are truncated partition by partition; the rest
 * goes in chunks so no statement runs long. One sweep at a time; TelemetryRetentionWorker runs it
 * every TELEMETRY_RETENTION_INTERVAL_MINUTES.
 */
@Injectable()
export class TelemetryRetentionService {
  private readonly logger = new Logger('TelemetryRetention');
  private running?: Promise<RetentionReport>;

  constructor(
    private readonly repo: TelemetryRetentionRepository,
    @Inject(TELEMETRY_SETTINGS) private readonly settings: TelemetrySettings,
    @Inject(TELEMETRY_CLOCK) private readonly clock: Clock,
  ) {}

  /** One sweep (joins the one under way, if any). */
  run(now: Date = this.clock.now()): Promise<RetentionReport> {
    this.running ??= this.prune(now).finally(() => (this.running = undefined));
    return this.running;
  }

  /** Settles when no sweep is under way (its failure is not rethrown). */
  async settled(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  private async prune(now: Date): Promise<RetentionReport> {
    const cutoffs = retentionCutoffs(now, this.settings.retention);
    const report: RetentionReport = { raw: 0, '5m': 0, '1h': 0, '1d': 0 };
    if (cutoffs.raw) report.raw = await this.pruneRaw(cutoffs.raw);
    for (const resolution of ROLLUP_RESOLUTIONS) {
      const cutoff = cutoffs[resolution];
      if (cutoff) report[resolution] = await this.pruneRollup(resolution, cutoff);
    }
    if (report.raw || report['5m'] || report['1h'] || report['1d']) this.logger.log(`removed old telemetry: ${JSON.stringify(report)}`);
    return report;
  }

  private async pruneRaw(cutoff: Date): Promise<number> {
    let removed = 0;
    for (const relname of await this.repo.rawPartitions(JOB)) {
      if (partitionEnd(relname) > cutoff.getTime()) continue;
      removed += await this.repo.emptyPartition(JOB, relname);
    }
    // The rest (the cutoff's month, the default partition) day by day.
    for (const before of daySteps(await this.repo.oldestRawBefore(JOB, cutoff), cutoff)) removed += await this.repo.deleteRawBefore(JOB, before);
    return removed;
  }

  private async pruneRollup(resolution: RollupResolution, cutoff: Date): Promise<number> {
    let removed = 0;
    for (;;) {
      const count = await this.repo.deleteRollupChunk(JOB, resolution, cutoff, CHUNK);
      removed += count;
      if (!count || count < CHUNK) return removed;
    }
  }
}
