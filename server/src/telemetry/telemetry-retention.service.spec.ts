import type { SystemJob } from '../common/system-job';
import type { RollupResolution } from './rollups';
import type { TelemetryRetentionRepository } from './telemetry-retention.repository';
import { daySteps, partitionEnd, retentionCutoffs, TelemetryRetentionService } from './telemetry-retention.service';
import type { TelemetrySettings } from './telemetry.config';

/** The rules of the retention sweep over an in-memory stand-in of its repository (no database). */

const DAY = 86_400_000;
const NOW = new Date(Date.UTC(2026, 2, 15, 12));

function memoryRetention(raw: Date[], partitions: Record<string, number>, rollups: Partial<Record<RollupResolution, Date[]>>) {
  const jobs = new Set<string>();
  const repo = {
    rawPartitions: async (job: SystemJob) => (jobs.add(job.job), Object.keys(partitions)),
    emptyPartition: async (job: SystemJob, relname: string) => {
      jobs.add(job.job);
      const n = partitions[relname];
      partitions[relname] = 0;
      return n;
    },
    oldestRawBefore: async (_job: SystemJob, cutoff: Date) => raw.filter((t) => t < cutoff).sort((a, b) => +a - +b)[0] ?? null,
    deleteRawBefore: async (_job: SystemJob, before: Date) => {
      const gone = raw.filter((t) => t < before);
      raw.splice(0, raw.length, ...raw.filter((t) => t >= before));
      return gone.length;
    },
    deleteRollupChunk: async (_job: SystemJob, resolution: RollupResolution, cutoff: Date, limit: number) => {
      const rows = rollups[resolution] ?? [];
      const gone = rows.filter((t) => t < cutoff).slice(0, limit);
      rollups[resolution] = rows.filter((t) => !gone.includes(t));
      return gone.length;
    },
  } satisfies Omit<TelemetryRetentionRepository, 'ds'>;
  return { repo: repo as unknown as TelemetryRetentionRepository, jobs };
}

const settings = (retention: Partial<TelemetrySettings['retention']>) =>
  ({ retention: { rawDays: 10, fiveMinuteDays: 20, hourDays: 30, dayDays: 0, intervalMinutes: 0, ...retention } }) as TelemetrySettings;

describe('telemetry retention rules', () => {
  it('cutoffs: days back from now per resolution; 0 keeps forever', () => {
    expect(retentionCutoffs(NOW, settings({}).retention)).toEqual({
      raw: new Date(NOW.getTime() - 10 * DAY),
      '5m': new Date(NOW.getTime() - 20 * DAY),
      '1h': new Date(NOW.getTime() - 30 * DAY),
      '1d': undefined,
    });
  });

  it('a monthly partition ends on the first of the next month (December into January)', () => {
    expect(new Date(partitionEnd('parameter_log_p202602')).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(new Date(partitionEnd('parameter_log_p202512')).toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('day steps from the oldest row to the cutoff, the last one the cutoff itself; none without old rows', () => {
    const cutoff = new Date(Date.UTC(2026, 2, 5, 12));
    expect(daySteps(new Date(Date.UTC(2026, 2, 3, 18)), cutoff).map((d) => d.toISOString())).toEqual(['2026-03-04T18:00:00.000Z', '2026-03-05T12:00:00.000Z']);
    expect(daySteps(null, cutoff)).toEqual([]);
  });

  it('a sweep truncates months wholly past the cutoff, deletes the rest by day and rollups by chunk, and reports the counts', async () => {
    const raw = [1, 2, 3, 11, 12].map((d) => new Date(Date.UTC(2026, 2, d)));
    const { repo, jobs } = memoryRetention(
      raw,
      { parameter_log_p202601: 7, parameter_log_p202602: 3, parameter_log_p202603: 99 },
      {
        '5m': [new Date(Date.UTC(2026, 1, 1)), new Date(Date.UTC(2026, 2, 1))],
        '1d': [new Date(Date.UTC(2020, 0, 1))],
      },
    );
    const sut = new TelemetryRetentionService(repo, settings({}), { now: () => NOW });
    expect(await sut.run(NOW)).toEqual({ raw: 7 + 3 + 3, '5m': 1, '1h': 0, '1d': 0 });
    expect(raw.map((d) => d.getUTCDate())).toEqual([11, 12]);
    expect([...jobs]).toEqual(['telemetry-retention']);
    await sut.settled();
  });
});
