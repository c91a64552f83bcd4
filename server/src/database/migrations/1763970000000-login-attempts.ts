import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * login_attempt: the brute-force brake's memory, shared by every instance (it was per instance,
 * in memory, so N instances let an attacker try N times as often). One row per login attempt,
 * written before the password is checked and removed again on success; rows older than the
 * window (LOGIN_WINDOW_SECONDS) are swept. No entity: only LoginThrottle reads it, with SQL.
 * Runs on PostgreSQL and on PGlite.
 */
export class LoginAttempts1763970000000 implements MigrationInterface {
  name = 'LoginAttempts1763970000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "login_attempt" (
      "ticket" varchar(32) NOT NULL,
      "account" varchar(320) NOT NULL,
      "address" varchar(100) NOT NULL,
      "at" timestamptz NOT NULL,
      CONSTRAINT "pk_login_attempt" PRIMARY KEY ("ticket")
    )`);
    await queryRunner.query(`CREATE INDEX "ix_login_attempt_account_at" ON "login_attempt" ("account", "at")`);
    await queryRunner.query(`CREATE INDEX "ix_login_attempt_address_at" ON "login_attempt" ("address", "at")`);
    await queryRunner.query(`CREATE INDEX "ix_login_attempt_at" ON "login_attempt" ("at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "login_attempt"`);
  }
}
