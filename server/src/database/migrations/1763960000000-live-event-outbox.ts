import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * live_event: the bodies of live events on PostgreSQL. A NOTIFY payload must stay under 8000
 * bytes, so a publish stores the event here and NOTIFYs only its id and recipients; every instance
 * loads the body by id when fanning out. Rows are swept after an hour (LiveEventsService).
 * No entity: only the live events service reads it, with SQL. Runs on PostgreSQL and on PGlite.
 */
export class LiveEventOutbox1763960000000 implements MigrationInterface {
  name = 'LiveEventOutbox1763960000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "live_event" (
      "event_id" varchar(32) NOT NULL,
      "payload" text NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "pk_live_event" PRIMARY KEY ("event_id")
    )`);
    await queryRunner.query(`CREATE INDEX "ix_live_event_created_at" ON "live_event" ("created_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "live_event"`);
  }
}
