import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * budget_use: the shared budgets' memory (server/src/budgets/): one row per unit spent (a mail, a
 * command) under one budget ('mail.user', 'mail.address', 'mail.company', 'command.controller') and
 * its key (a user, an address, a company, a controller), shared by every instance like
 * login_attempt. Rows older than the longest window (an hour) are swept. No entity: only
 * budget.repository.ts reads it. Runs on PostgreSQL and on PGlite.
 */
export class BudgetUses1764620000000 implements MigrationInterface {
  name = 'BudgetUses1764620000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "budget_use" (
      "budget" varchar(40) NOT NULL,
      "key" varchar(320) NOT NULL,
      "at" timestamptz NOT NULL
    )`);
    await queryRunner.query(`CREATE INDEX "ix_budget_use_key_at" ON "budget_use" ("budget", "key", "at")`);
    await queryRunner.query(`CREATE INDEX "ix_budget_use_at" ON "budget_use" ("at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "budget_use"`);
  }
}
