import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * mqtt_member: which instance consumes which MQTT session of the shared-subscription group (one
 * row per client id). An instance renews its lease while connected; a member whose lease lapsed
 * is claimed (`adopted_by`) by another instance, which retires its session and deletes the row
 * (gateway/mqtt-members.worker.ts, docs/ingest-failover.md). No entity: only MqttMembers reads it,
 * with SQL. Runs on PostgreSQL and on PGlite.
 */
export class MqttMembers1764500000000 implements MigrationInterface {
  name = 'MqttMembers1764500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "mqtt_member" (
      "client_id" varchar(64) NOT NULL,
      "share_group" varchar(64) NOT NULL,
      "instance" varchar(64) NOT NULL,
      "lease_until" timestamptz NOT NULL,
      "adopted_by" varchar(64),
      CONSTRAINT "pk_mqtt_member" PRIMARY KEY ("client_id")
    )`);
    await queryRunner.query(`CREATE INDEX "ix_mqtt_member_group_lease" ON "mqtt_member" ("share_group", "lease_until")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "mqtt_member"`);
  }
}
