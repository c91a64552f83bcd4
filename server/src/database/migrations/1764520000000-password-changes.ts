import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * password_change: the password-change brake's memory (PasswordChangeBrake), shared by every
 * instance like login_attempt (in memory, N instances let a user set N times as many passwords).
 * One row per admitted change; rows older than a minute are swept. No entity: only the brake
 * reads it, with SQL. Runs on PostgreSQL and on PGlite.
 */
export class PasswordChanges1764520000000 implements MigrationInterface {
  name = 'PasswordChanges1764520000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "password_change" (
      "change_cuid" varchar(32) NOT NULL,
      "user_cuid" varchar(32) NOT NULL,
      "at" timestamptz NOT NULL,
      CONSTRAINT "pk_password_change" PRIMARY KEY ("change_cuid")
    )`);
    await queryRunner.query(`CREATE INDEX "ix_password_change_user_at" ON "password_change" ("user_cuid", "at")`);
    await queryRunner.query(`CREATE INDEX "ix_password_change_at" ON "password_change" ("at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "password_change"`);
  }
}
