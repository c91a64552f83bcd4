import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Telemetry (issue 5): rollups of parameter_log and the presence bookkeeping of controllers.
 * Runs on PostgreSQL 15+ and on PGlite.
 *
 * - parameter_rollup_5m / _1h / _1d: per (entity_cuid, parameter_id, bucket) the min, max, sum,
 *   count and last value (the value at last_ts, the latest raw timestamp in the bucket). They are
 *   kept current by the ingest writer in the same statement as the raw insert, from the rows that
 *   statement really inserted (so retransmits never count twice and late rows merge in).
 *   5 min and 1 h buckets are UTC-aligned; 1 day buckets start at local midnight in the timezone
 *   of the entity's system (UTC for an entity without a system), so daily charts and daily min/max
 *   follow the system's days. A BRIN index on bucket serves the retention job.
 * - controller_presence: what the online-state machine needs beyond controller_online_state
 *   (last contact, dropouts within the flapping window, since when the state holds).
 *
 * Existing raw rows (if any) are rolled up once here.
 */
export class TelemetryRollups1763800000000 implements MigrationInterface {
  name = 'TelemetryRollups1763800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const resolution of ROLLUP_RESOLUTIONS) {
      const t = `parameter_rollup_${resolution}`;
      await queryRunner.query(`CREATE TABLE "${t}" (
        "entity_cuid" varchar(32) NOT NULL,
        "parameter_id" varchar(64) NOT NULL,
        "bucket" timestamptz NOT NULL,
        "min" double precision NOT NULL,
        "max" double precision NOT NULL,
        "sum" double precision NOT NULL,
        "count" integer NOT NULL,
        "last" double precision NOT NULL,
        "last_ts" timestamptz NOT NULL,
        CONSTRAINT "pk_${t}" PRIMARY KEY ("entity_cuid", "parameter_id", "bucket"),
        CONSTRAINT "ck_${t}_count" CHECK (count > 0),
        CONSTRAINT "fk_${t}_entity_cuid" FOREIGN KEY ("entity_cuid")
          REFERENCES "entity" ("entity_cuid") ON DELETE CASCADE,
        CONSTRAINT "fk_${t}_parameter_id" FOREIGN KEY ("parameter_id")
          REFERENCES "log_parameter" ("parameter_id") ON DELETE CASCADE
      )`);
      await queryRunner.query(`CREATE INDEX "ix_${t}_bucket" ON "${t}" USING brin ("bucket")`);
      await queryRunner.query(`CREATE INDEX "ix_${t}_parameter_id" ON "${t}" ("parameter_id")`);
    }

    await queryRunner.query(`CREATE TABLE "controller_presence" (
      "controller_id" varchar(64) NOT NULL,
      "last_seen_at" timestamptz NOT NULL,
      "state_since" timestamptz NOT NULL,
      "online_since" timestamptz,
      "dropouts" timestamptz[] NOT NULL DEFAULT '{}',
      "last_transport" varchar(16),
      CONSTRAINT "pk_controller_presence" PRIMARY KEY ("controller_id"),
      CONSTRAINT "fk_controller_presence_controller_id" FOREIGN KEY ("controller_id")
        REFERENCES "controller" ("controller_id") ON DELETE CASCADE
    )`);
    await queryRunner.query(`CREATE INDEX "ix_controller_presence_last_seen_at" ON "controller_presence" ("last_seen_at")`);

    // Roll up whatever raw data exists already.
    for (const resolution of ROLLUP_RESOLUTIONS) {
      await queryRunner.query(`INSERT INTO "parameter_rollup_${resolution}"
          (entity_cuid, parameter_id, bucket, min, max, sum, count, last, last_ts)
        SELECT l.entity_cuid, l.parameter_id, ${bucketExpression(resolution, 'l."timestamp"', `COALESCE(s.timezone, 'UTC')`)},
               min(COALESCE(l.min, l.value)), max(COALESCE(l.max, l.value)), sum(l.value), count(*),
               (array_agg(l.value ORDER BY l."timestamp" DESC))[1], max(l."timestamp")
          FROM parameter_log l
          JOIN entity e ON e.entity_cuid = l.entity_cuid
          LEFT JOIN system s ON s.system_cuid = e.system_cuid
         GROUP BY 1, 2, 3`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "controller_presence"`);
    for (const resolution of [...ROLLUP_RESOLUTIONS].reverse()) {
      await queryRunner.query(`DROP TABLE "parameter_rollup_${resolution}"`);
    }
  }
}

// Frozen copies (a migration must not change when the application code does).
const ROLLUP_RESOLUTIONS = ['5m', '1h', '1d'] as const;
type RollupResolution = (typeof ROLLUP_RESOLUTIONS)[number];

/** SQL for the start of the bucket holding `ts`: 5 min and 1 h UTC-aligned, 1 day at local midnight in `tz`. */
function bucketExpression(resolution: RollupResolution, ts: string, tz: string): string {
  switch (resolution) {
    case '5m':
      return `date_bin('5 minutes', ${ts}, TIMESTAMPTZ '2000-01-01 00:00:00+00')`;
    case '1h':
      return `date_trunc('hour', ${ts}, 'UTC')`;
    case '1d':
      return `date_trunc('day', ${ts}, ${tz})`;
  }
}
