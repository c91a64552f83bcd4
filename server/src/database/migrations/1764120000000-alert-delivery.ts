import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The alert outbox's per-channel deliveries (issue: alerts).
 * - notification_delivery: one row per (event, channel) the event must reach. The event row
 *   (notification_trigger_event) is the queue; this table says which channel already has it, so a
 *   retry sends only to the channels that have not. A row is PENDING (due at `next_attempt_at`),
 *   SENDING (claimed by a worker until `lease_until`), SENT or ARCHIVED (`last_error` says why).
 *   `attempts` counts failed sends (toward archiving), `deferrals` the services' "wait" answers
 *   (429 retry_after: bounded, but not failures), `duplicates` the sends that may have gone out
 *   twice (a SENDING row claimed again after its lease ran out: the instance died mid-send).
 *   No foreign key to the event: its key is (event_cuid, timestamp) because it is partitioned;
 *   `event_timestamp` is kept to reach the event's partition.
 * - notify_alert_outbox: a statement trigger NOTIFYs `alert_outbox` when events are written, so
 *   every instance's worker (LISTEN) wakes at the writer's commit, not at its next poll.
 * Runs on PostgreSQL and on PGlite.
 */
export class AlertDelivery1764120000000 implements MigrationInterface {
  name = 'AlertDelivery1764120000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "notification_delivery" (
      "event_cuid" varchar(32) NOT NULL,
      "channel_cuid" varchar(32) NOT NULL,
      "event_timestamp" timestamptz NOT NULL,
      "notification_cuid" varchar(32) NOT NULL,
      "company_cuid" varchar(32) NOT NULL,
      "status" "trigger_event_status" NOT NULL DEFAULT 'PENDING',
      "attempts" integer NOT NULL DEFAULT 0,
      "deferrals" integer NOT NULL DEFAULT 0,
      "duplicates" integer NOT NULL DEFAULT 0,
      "next_attempt_at" timestamptz NOT NULL DEFAULT now(),
      "lease_until" timestamptz NULL,
      "started_at" timestamptz NULL,
      "sent_at" timestamptz NULL,
      "last_error" text NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "pk_notification_delivery" PRIMARY KEY ("event_cuid", "channel_cuid"),
      CONSTRAINT "fk_notification_delivery_channel_cuid" FOREIGN KEY ("channel_cuid")
        REFERENCES "notification_channel" ("channel_cuid") ON DELETE CASCADE,
      CONSTRAINT "fk_notification_delivery_notification_cuid" FOREIGN KEY ("notification_cuid")
        REFERENCES "notification" ("notification_cuid") ON DELETE CASCADE
    )`);
    await queryRunner.query(`CREATE INDEX "ix_notification_delivery_due" ON "notification_delivery" ("status", "next_attempt_at")`);
    await queryRunner.query(`CREATE INDEX "ix_notification_delivery_channel_cuid" ON "notification_delivery" ("channel_cuid")`);
    await queryRunner.query(`CREATE INDEX "ix_notification_delivery_notification_cuid" ON "notification_delivery" ("notification_cuid")`);
    await queryRunner.query(`CREATE FUNCTION notify_alert_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('alert_outbox', '');
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER "tr_notification_trigger_event_notify" AFTER INSERT ON "notification_trigger_event"
      FOR EACH STATEMENT EXECUTE FUNCTION notify_alert_outbox()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "tr_notification_trigger_event_notify" ON "notification_trigger_event"`);
    await queryRunner.query(`DROP FUNCTION notify_alert_outbox()`);
    await queryRunner.query(`DROP TABLE "notification_delivery"`);
  }
}
