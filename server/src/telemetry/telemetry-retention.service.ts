import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '../database/database.module';
import { ROLLUP_RESOLUTIONS, type RollupResolution, rollupTable } from './rollups';
import { type Clock, TELEMETRY_CLOCK, TELEMETRY_SETTINGS, type TelemetrySettings } from './telemetry.config';

const DAY_MS = 86_400_000;
const CHUNK = 20_000;

export interface RetentionReport {
  raw: number;
  '5m': number;
  '1h': number;
  '1d': number;
}

/**
 * Deletes telemetry older than its resolution's retention (TELEMETRY_RETENTION_*_DAYS; 0 keeps
 * it forever), every TELEMETRY_RETENTION_INTERVAL_MINUTES. Raw months wholly past the cutoff are
 * truncated partition by partition; the rest goes in chunks so no statement runs long.
 */
@Injectable()
export class TelemetryRetentionService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('TelemetryRetention');
  private timer?: NodeJS.Timeout;
  private running?: Promise<RetentionReport>;

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(TELEMETRY_SETTINGS) private readonly settings: TelemetrySettings,
    @Inject(TELEMETRY_CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    const minutes = this.settings.retention.intervalMinutes;
    if (minutes > 0) {
      this.timer = setInterval(() => void this.run().catch((e) => this.logger.warn(`retention failed: ${(e as Error).message}`)), minutes * 60_000);
      this.timer.unref();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  run(now: Date = this.clock.now()): Promise<RetentionReport> {
    this.running ??= this.prune(now).finally(() => (this.running = undefined));
    return this.running;
  }

  private async prune(now: Date): Promise<RetentionReport> {
    const r = this.settings.retention;
    const days: Record<RollupResolution, number> = { '5m': r.fiveMinuteDays, '1h': r.hourDays, '1d': r.dayDays };
    const report: RetentionReport = { raw: 0, '5m': 0, '1h': 0, '1d': 0 };
    if (r.rawDays > 0) report.raw = await this.pruneRaw(new Date(now.getTime() - r.rawDays * DAY_MS));
    for (const resolution of ROLLUP_RESOLUTIONS) {
      if (days[resolution] > 0) report[resolution] = await this.pruneRollup(resolution, new Date(now.getTime() - days[resolution] * DAY_MS));
    }
    if (report.raw || report['5m'] || report['1h'] || report['1d']) this.logger.log(`removed old telemetry: ${JSON.stringify(report)}`);
    return report;
  }

  private async pruneRaw(cutoff: Date): Promise<number> {
    let removed = 0;
    const parts = (await this.ds.query(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'parameter_log'::regclass AND c.relname ~ '^parameter_log_p[0-9]{6}$'`,
    )) as { relname: string }[];
    for (const { relname } of parts) {
      const y = Number(relname.slice(-6, -2));
      const m = Number(relname.slice(-2));
      const end = Date.UTC(y, m, 1); // first instant of the next month
      if (end > cutoff.getTime()) continue;
      const [{ n }] = (await this.ds.query(`SELECT count(*)::int AS n FROM "${relname}"`)) as { n: number }[];
      if (n > 0) {
        await this.ds.query(`TRUNCATE "${relname}"`);
        removed += n;
      }
    }
    // The rest (the cutoff's month, the default partition) day by day.
    const [{ oldest }] = (await this.ds.query(`SELECT min("timestamp") AS oldest FROM parameter_log WHERE "timestamp" < $1`, [cutoff])) as {
      oldest: Date | null;
    }[];
    for (let t = oldest ? oldest.getTime() : cutoff.getTime(); t < cutoff.getTime(); ) {
      const next = Math.min(t + DAY_MS, cutoff.getTime());
      const [, count] = (await this.ds.query(`DELETE FROM parameter_log WHERE "timestamp" < $1`, [new Date(next)])) as [unknown, number];
      removed += count ?? 0;
      t = next;
    }
    return removed;
  }

  private async pruneRollup(resolution: RollupResolution, cutoff: Date): Promise<number> {
    const table = rollupTable(resolution);
    let removed = 0;
    for (;;) {
      const [, count] = (await this.ds.query(
        `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE bucket < $1 LIMIT ${CHUNK}))`,
        [cutoff],
      )) as [unknown, number];
      removed += count ?? 0;
      if (!count || count < CHUNK) return removed;
    }
  }
}
