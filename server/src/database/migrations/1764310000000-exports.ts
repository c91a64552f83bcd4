import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Data exports (issue 13): background export jobs (export_job: a worker claims QUEUED jobs, and
 * RUNNING jobs whose lease ran out, with FOR UPDATE SKIP LOCKED) and the next run of each scheduled
 * template (export_schedule). Runs on PostgreSQL and on PGlite.
 */
export class Exports1764310000000 implements MigrationInterface {
  name = 'Exports1764310000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q(`CREATE TYPE "export_job_status" AS ENUM ('QUEUED', 'RUNNING', 'DONE', 'FAILED')`);
    await q(`CREATE TABLE "export_job" (
      "id" varchar(32) NOT NULL,
      "user_cuid" varchar(32) NULL,
      "system_cuid" varchar(32) NOT NULL,
      "template_cuid" varchar(32) NULL,
      "params" jsonb NOT NULL DEFAULT '{}',
      "status" "export_job_status" NOT NULL DEFAULT 'QUEUED',
      "rows_done" integer NOT NULL DEFAULT 0,
      "rows_total" integer NULL,
      "bytes" bigint NULL,
      "file_name" varchar(200) NOT NULL,
      "error" text NULL,
      "scheduled" boolean NOT NULL DEFAULT false,
      "attempts" integer NOT NULL DEFAULT 0,
      "worker" varchar(64) NULL,
      "lease_until" timestamptz NULL,
      "mailed_at" timestamptz NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "finished_at" timestamptz NULL,
      "expires_at" timestamptz NULL,
      CONSTRAINT "pk_export_job" PRIMARY KEY ("id"),
      CONSTRAINT "fk_export_job_user_cuid" FOREIGN KEY ("user_cuid") REFERENCES "user" ("user_cuid") ON DELETE CASCADE,
      CONSTRAINT "fk_export_job_system_cuid" FOREIGN KEY ("system_cuid") REFERENCES "system" ("system_cuid") ON DELETE CASCADE,
      CONSTRAINT "fk_export_job_template_cuid" FOREIGN KEY ("template_cuid") REFERENCES "system_data_export_template" ("template_cuid") ON DELETE SET NULL
    )`);
    await q(`CREATE INDEX "ix_export_job_user_created" ON "export_job" ("user_cuid", "created_at")`);
    await q(`CREATE INDEX "ix_export_job_status_lease" ON "export_job" ("status", "lease_until")`);
    await q(`CREATE INDEX "ix_export_job_system_cuid" ON "export_job" ("system_cuid")`);
    await q(`CREATE INDEX "ix_export_job_template_cuid" ON "export_job" ("template_cuid")`);
    await q(`CREATE INDEX "ix_export_job_expires_at" ON "export_job" ("expires_at")`);

    await q(`CREATE TABLE "export_schedule" (
      "template_cuid" varchar(32) NOT NULL,
      "next_run_at" timestamptz NOT NULL,
      CONSTRAINT "pk_export_schedule" PRIMARY KEY ("template_cuid"),
      CONSTRAINT "fk_export_schedule_template_cuid" FOREIGN KEY ("template_cuid") REFERENCES "system_data_export_template" ("template_cuid") ON DELETE CASCADE
    )`);
    await q(`CREATE INDEX "ix_export_schedule_next_run_at" ON "export_schedule" ("next_run_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "export_schedule"`);
    await queryRunner.query(`DROP TABLE "export_job"`);
    await queryRunner.query(`DROP TYPE "export_job_status"`);
  }
}
