import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * export_job.started_at: when a worker last took the job. The export worker's round-robin reads
 * each company's latest start to let the company served least recently go next (fair share
 * instead of first come first served). Runs on PostgreSQL and on PGlite.
 */
export class ExportFairShare1764610000000 implements MigrationInterface {
  name = 'ExportFairShare1764610000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "export_job" ADD "started_at" timestamptz`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "export_job" DROP COLUMN "started_at"`);
  }
}
