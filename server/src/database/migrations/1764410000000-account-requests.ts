import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * account_request: the "forgot password" brake's memory, shared by every instance. One row per
 * request (whatever the address: known, unknown or inactive alike), counted per email and per
 * client address over the last hour (RESET_REQUESTS_PER_HOUR, RESET_REQUESTS_PER_ADDRESS_PER_HOUR);
 * rows older than an hour are swept. No entity: only the accounts' ResetThrottle reads it, with
 * SQL. The one-time links themselves live in url_request (only a hash of their secret).
 * Runs on PostgreSQL and on PGlite.
 */
export class AccountRequests1764410000000 implements MigrationInterface {
  name = 'AccountRequests1764410000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "account_request" (
      "request_cuid" varchar(32) NOT NULL,
      "account" varchar(320) NOT NULL,
      "address" varchar(100) NOT NULL,
      "at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "pk_account_request" PRIMARY KEY ("request_cuid")
    )`);
    await queryRunner.query(`CREATE INDEX "ix_account_request_account_at" ON "account_request" ("account", "at")`);
    await queryRunner.query(`CREATE INDEX "ix_account_request_address_at" ON "account_request" ("address", "at")`);
    await queryRunner.query(`CREATE INDEX "ix_account_request_at" ON "account_request" ("at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "account_request"`);
  }
}
