import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The alert engine's working state (issue: alerts).
 * - notification_trigger_status: one row per trigger, a copy of its latest NotificationTriggerLog
 *   (state, processing status, next execution and what drives it) plus what a pending duration
 *   needs (`pending_*`) and how far in device time the trigger has been judged (`evaluated_until`).
 *   The log table is the history; this row is what the engine locks (`FOR UPDATE`, and
 *   `SKIP LOCKED` for the timer's due rows: ix_notification_trigger_status_due).
 * - notification_trigger.customized_at: set when a trigger created from a template is edited by
 *   hand; template changes then leave it alone.
 * - notification_user_blacklist.until: a mute may end by itself (NULL = until unmuted).
 * Runs on PostgreSQL and on PGlite.
 */
export class AlertState1764100000000 implements MigrationInterface {
  name = 'AlertState1764100000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "notification_trigger_status" (
      "trigger_cuid" varchar(32) NOT NULL,
      "trigger_state" "trigger_state" NOT NULL DEFAULT 'RELEASED',
      "state_since" timestamptz NULL,
      "processing_status" "trigger_log_processing_status" NULL,
      "log_cuid" varchar(32) NULL,
      "log_timestamp" timestamptz NULL,
      "evaluated_at" timestamptz NULL,
      "evaluated_until" timestamptz NULL,
      "pending_state" "trigger_state" NULL,
      "pending_since" timestamptz NULL,
      "last_value" jsonb NULL,
      "next_execution" timestamptz NULL,
      "next_execution_trigger" "next_execution_trigger" NULL,
      CONSTRAINT "pk_notification_trigger_status" PRIMARY KEY ("trigger_cuid"),
      CONSTRAINT "fk_notification_trigger_status_trigger_cuid" FOREIGN KEY ("trigger_cuid")
        REFERENCES "notification_trigger" ("trigger_cuid") ON DELETE CASCADE
    )`);
    await queryRunner.query(`CREATE INDEX "ix_notification_trigger_status_due" ON "notification_trigger_status" ("next_execution")`);
    await queryRunner.query(`ALTER TABLE "notification_trigger" ADD "customized_at" timestamptz NULL`);
    await queryRunner.query(`ALTER TABLE "notification_user_blacklist" ADD "until" timestamptz NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notification_user_blacklist" DROP COLUMN "until"`);
    await queryRunner.query(`ALTER TABLE "notification_trigger" DROP COLUMN "customized_at"`);
    await queryRunner.query(`DROP TABLE "notification_trigger_status"`);
  }
}
