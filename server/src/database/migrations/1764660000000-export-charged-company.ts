import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * export_job.charged_company_cuid: the company whose export budgets a job counts against — the
 * company through which the caller sees the system (its owner when the caller is a member there,
 * else the company that received the share; the owner for scheduled jobs). The queued and running
 * budgets and the round-robin count by it, so a partner company cannot fill the owner's queue
 * (issue 24). Existing jobs are charged to their system's owner. Runs on PostgreSQL and on PGlite.
 */
export class ExportChargedCompany1764660000000 implements MigrationInterface {
  name = 'ExportChargedCompany1764660000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "export_job" ADD "charged_company_cuid" varchar(32)`);
    await queryRunner.query(`UPDATE "export_job" j SET "charged_company_cuid" = s."company_cuid" FROM "system" s WHERE s."system_cuid" = j."system_cuid"`);
    await queryRunner.query(`ALTER TABLE "export_job" ALTER COLUMN "charged_company_cuid" SET NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE "export_job" ADD CONSTRAINT "fk_export_job_charged_company_cuid" FOREIGN KEY ("charged_company_cuid") REFERENCES "company" ("company_cuid") ON DELETE CASCADE`,
    );
    await queryRunner.query(`CREATE INDEX "ix_export_job_charged_status" ON "export_job" ("charged_company_cuid", "status")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_export_job_charged_status"`);
    await queryRunner.query(`ALTER TABLE "export_job" DROP CONSTRAINT "fk_export_job_charged_company_cuid"`);
    await queryRunner.query(`ALTER TABLE "export_job" DROP COLUMN "charged_company_cuid"`);
  }
}
