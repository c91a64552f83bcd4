import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Budget accounts (docs/security.md "Budgets and fair shares"): company_budget_root says to which
 * root company's budgets a company counts — a company made by a company admin who is no superuser
 * counts with the company its creator administers from. No row: the company is its own root (every
 * company that existed before this migration). The per-company caps count the company of the actor
 * who created a row: notification_trigger and entity (data processors) get charged_company_cuid
 * (null for older rows: they count with their system's owner, as before). Runs on PostgreSQL and PGlite.
 */
export class BudgetRoots1764672000000 implements MigrationInterface {
  name = 'BudgetRoots1764672000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "company_budget_root" ("company_cuid" varchar(32) NOT NULL, "root_company_cuid" varchar(32) NOT NULL,
         CONSTRAINT "pk_company_budget_root" PRIMARY KEY ("company_cuid"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "company_budget_root" ADD CONSTRAINT "fk_company_budget_root_company_cuid" FOREIGN KEY ("company_cuid") REFERENCES "company" ("company_cuid") ON DELETE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "company_budget_root" ADD CONSTRAINT "fk_company_budget_root_root_company_cuid" FOREIGN KEY ("root_company_cuid") REFERENCES "company" ("company_cuid") ON DELETE CASCADE`,
    );
    await queryRunner.query(`CREATE INDEX "ix_company_budget_root_root_company_cuid" ON "company_budget_root" ("root_company_cuid")`);
    for (const table of ['notification_trigger', 'entity']) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD "charged_company_cuid" varchar(32)`);
      await queryRunner.query(
        `ALTER TABLE "${table}" ADD CONSTRAINT "fk_${table}_charged_company_cuid" FOREIGN KEY ("charged_company_cuid") REFERENCES "company" ("company_cuid") ON DELETE SET NULL`,
      );
      await queryRunner.query(`CREATE INDEX "ix_${table}_charged_company_cuid" ON "${table}" ("charged_company_cuid")`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['entity', 'notification_trigger']) {
      await queryRunner.query(`DROP INDEX "ix_${table}_charged_company_cuid"`);
      await queryRunner.query(`ALTER TABLE "${table}" DROP CONSTRAINT "fk_${table}_charged_company_cuid"`);
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "charged_company_cuid"`);
    }
    await queryRunner.query(`DROP TABLE "company_budget_root"`);
  }
}
