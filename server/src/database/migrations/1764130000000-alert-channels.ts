import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alert channels (issue: alerts): the Telegram bot's update loop state (telegram_bot_state: the next
 * update offset, so a restart does not read an update twice, and a lease so one instance polls at a
 * time). Runs on PostgreSQL and on PGlite.
 */
export class AlertChannels1764130000000 implements MigrationInterface {
  name = 'AlertChannels1764130000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "telegram_bot_state" (
      "bot_id" varchar(64) NOT NULL,
      "update_offset" bigint NOT NULL DEFAULT 0,
      "lease_owner" varchar(64) NULL,
      "lease_until" timestamptz NULL,
      CONSTRAINT "pk_telegram_bot_state" PRIMARY KEY ("bot_id")
    )`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "telegram_bot_state"`);
  }
}
