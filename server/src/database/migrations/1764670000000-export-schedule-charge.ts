import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * system_data_export_template.charged_company_cuid: the company a scheduled template's jobs and
 * mails are charged to — the company through which the actor who last set its schedule sees the
 * system (chargedCompany, as exportJob.start picks it). NULL (templates written before, or without
 * a schedule) means the system's owner. export_job.mail_error: why a finished scheduled job's mail
 * was not sent to every recipient (a spent mail budget), shown with the job. Runs on PostgreSQL and
 * on PGlite.
 */
export class ExportScheduleCharge1764670000000 implements MigrationInterface {
  name = 'ExportScheduleCharge1764670000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "system_data_export_template" ADD "charged_company_cuid" varchar(32)`);
    await queryRunner.query(
      `ALTER TABLE "system_data_export_template" ADD CONSTRAINT "fk_system_data_export_template_charged_company_cuid" FOREIGN KEY ("charged_company_cuid") REFERENCES "company" ("company_cuid") ON DELETE SET NULL`,
    );
    await queryRunner.query(`CREATE INDEX "ix_system_data_export_template_charged_company_cuid" ON "system_data_export_template" ("charged_company_cuid")`);
    await queryRunner.query(`ALTER TABLE "export_job" ADD "mail_error" varchar(500)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "export_job" DROP COLUMN "mail_error"`);
    await queryRunner.query(`DROP INDEX "ix_system_data_export_template_charged_company_cuid"`);
    await queryRunner.query(`ALTER TABLE "system_data_export_template" DROP CONSTRAINT "fk_system_data_export_template_charged_company_cuid"`);
    await queryRunner.query(`ALTER TABLE "system_data_export_template" DROP COLUMN "charged_company_cuid"`);
  }
}
