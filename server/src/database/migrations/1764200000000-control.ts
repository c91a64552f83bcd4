import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Control (issue: control): commands to controllers (controller_command), desired and reported
 * configuration (controller.config, *.reported_config), commands a controller type declares
 * (controller_type.commands), device mutes (device_mute), step-up re-authentication
 * (session_step_up) and automatic changelog entries (system_changelog.kind / ref).
 * Runs on PostgreSQL and on PGlite.
 */
export class Control1764200000000 implements MigrationInterface {
  name = 'Control1764200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q(`CREATE TYPE "controller_command_status" AS ENUM ('PENDING', 'SENT', 'SUCCESS', 'FAILURE', 'TIMEOUT', 'EXPIRED')`);
    await q(`CREATE TYPE "changelog_kind" AS ENUM ('MANUAL', 'COMMAND', 'CONFIGURATION', 'MUTE')`);

    await q(`ALTER TABLE "controller" ADD "config" jsonb NOT NULL DEFAULT '{}'`);
    await q(`ALTER TABLE "controller" ADD "reported_config" jsonb NULL`);
    await q(`ALTER TABLE "controller" ADD "reported_at" timestamptz NULL`);
    await q(`ALTER TABLE "entity" ADD "reported_config" jsonb NULL`);
    await q(`ALTER TABLE "entity" ADD "reported_at" timestamptz NULL`);
    await q(`ALTER TABLE "controller_type" ADD "commands" jsonb NOT NULL DEFAULT '[]'`);
    await q(`ALTER TABLE "system_changelog" ADD "kind" "changelog_kind" NOT NULL DEFAULT 'MANUAL'`);
    await q(`ALTER TABLE "system_changelog" ADD "ref" varchar(64) NULL`);
    await q(`CREATE INDEX "ix_system_changelog_system_cuid_kind" ON "system_changelog" ("system_cuid", "kind")`);

    await q(`CREATE TABLE "controller_command" (
      "command_id" varchar(64) NOT NULL,
      "controller_id" varchar(64) NOT NULL,
      "company_cuid" varchar(32) NOT NULL,
      "system_cuid" varchar(32) NULL,
      "kind" varchar(64) NOT NULL,
      "payload" jsonb NOT NULL DEFAULT '{}',
      "dangerous" boolean NOT NULL DEFAULT false,
      "status" "controller_command_status" NOT NULL DEFAULT 'PENDING',
      "requested_by" varchar(32) NULL,
      "requested_at" timestamptz NOT NULL DEFAULT now(),
      "not_after" timestamptz NOT NULL,
      "sent_at" timestamptz NULL,
      "attempts" integer NOT NULL DEFAULT 0,
      "finished_at" timestamptz NULL,
      "acked_at" timestamptz NULL,
      "message" text NULL,
      "applied_config" jsonb NULL,
      CONSTRAINT "pk_controller_command" PRIMARY KEY ("command_id"),
      CONSTRAINT "fk_controller_command_controller_id" FOREIGN KEY ("controller_id") REFERENCES "controller" ("controller_id") ON DELETE CASCADE,
      CONSTRAINT "fk_controller_command_company_cuid" FOREIGN KEY ("company_cuid") REFERENCES "company" ("company_cuid") ON DELETE CASCADE,
      CONSTRAINT "fk_controller_command_system_cuid" FOREIGN KEY ("system_cuid") REFERENCES "system" ("system_cuid") ON DELETE SET NULL,
      CONSTRAINT "fk_controller_command_requested_by" FOREIGN KEY ("requested_by") REFERENCES "user" ("user_cuid") ON DELETE SET NULL
    )`);
    await q(`CREATE INDEX "ix_controller_command_controller_requested" ON "controller_command" ("controller_id", "requested_at")`);
    await q(`CREATE INDEX "ix_controller_command_system_requested" ON "controller_command" ("system_cuid", "requested_at")`);
    await q(`CREATE INDEX "ix_controller_command_status_controller" ON "controller_command" ("status", "controller_id")`);
    await q(`CREATE INDEX "ix_controller_command_requested_by" ON "controller_command" ("requested_by")`);
    await q(`CREATE INDEX "ix_controller_command_company_cuid" ON "controller_command" ("company_cuid")`);

    await q(`CREATE TABLE "device_mute" (
      "mute_cuid" varchar(32) NOT NULL,
      "entity_cuid" varchar(32) NOT NULL,
      "system_cuid" varchar(32) NOT NULL,
      "starts_at" timestamptz NOT NULL DEFAULT now(),
      "until" timestamptz NOT NULL,
      "reason" text NULL,
      "created_by" varchar(32) NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "ended_at" timestamptz NULL,
      "ended_by" varchar(32) NULL,
      CONSTRAINT "pk_device_mute" PRIMARY KEY ("mute_cuid"),
      CONSTRAINT "fk_device_mute_entity_cuid" FOREIGN KEY ("entity_cuid") REFERENCES "entity" ("entity_cuid") ON DELETE CASCADE,
      CONSTRAINT "fk_device_mute_system_cuid" FOREIGN KEY ("system_cuid") REFERENCES "system" ("system_cuid") ON DELETE CASCADE,
      CONSTRAINT "fk_device_mute_created_by" FOREIGN KEY ("created_by") REFERENCES "user" ("user_cuid") ON DELETE SET NULL,
      CONSTRAINT "fk_device_mute_ended_by" FOREIGN KEY ("ended_by") REFERENCES "user" ("user_cuid") ON DELETE SET NULL
    )`);
    await q(`CREATE INDEX "ix_device_mute_entity_until" ON "device_mute" ("entity_cuid", "until")`);
    await q(`CREATE INDEX "ix_device_mute_system_cuid" ON "device_mute" ("system_cuid")`);
    await q(`CREATE INDEX "ix_device_mute_created_by" ON "device_mute" ("created_by")`);
    await q(`CREATE INDEX "ix_device_mute_ended_by" ON "device_mute" ("ended_by")`);

    await q(`CREATE TABLE "session_step_up" (
      "sid" varchar(32) NOT NULL,
      "user_cuid" varchar(32) NOT NULL,
      "verified_at" timestamptz NOT NULL,
      CONSTRAINT "pk_session_step_up" PRIMARY KEY ("sid"),
      CONSTRAINT "fk_session_step_up_user_cuid" FOREIGN KEY ("user_cuid") REFERENCES "user" ("user_cuid") ON DELETE CASCADE
    )`);
    await q(`CREATE INDEX "ix_session_step_up_user_cuid" ON "session_step_up" ("user_cuid")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q(`DROP TABLE "session_step_up"`);
    await q(`DROP TABLE "device_mute"`);
    await q(`DROP TABLE "controller_command"`);
    await q(`DROP INDEX "ix_system_changelog_system_cuid_kind"`);
    await q(`ALTER TABLE "system_changelog" DROP COLUMN "ref"`);
    await q(`ALTER TABLE "system_changelog" DROP COLUMN "kind"`);
    await q(`ALTER TABLE "controller_type" DROP COLUMN "commands"`);
    await q(`ALTER TABLE "entity" DROP COLUMN "reported_at"`);
    await q(`ALTER TABLE "entity" DROP COLUMN "reported_config"`);
    await q(`ALTER TABLE "controller" DROP COLUMN "reported_at"`);
    await q(`ALTER TABLE "controller" DROP COLUMN "reported_config"`);
    await q(`ALTER TABLE "controller" DROP COLUMN "config"`);
    await q(`DROP TYPE "changelog_kind"`);
    await q(`DROP TYPE "controller_command_status"`);
  }
}
