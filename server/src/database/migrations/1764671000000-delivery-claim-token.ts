import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * notification_delivery.claim_token: which claim holds a SENDING delivery (one token per delivery
 * round of one instance). The holder renews its lease while it works and sends a delivery only
 * while it still holds it, so a live instance's delivery is never claimed and sent by another one;
 * only a holder that stopped renewing for a whole lease (killed, frozen) loses it (docs/alerts.md,
 * "Duplicates"). NULL for rows claimed before this column existed. Runs on PostgreSQL and PGlite.
 */
export class DeliveryClaimToken1764671000000 implements MigrationInterface {
  name = 'DeliveryClaimToken1764671000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notification_delivery" ADD "claim_token" varchar(32)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notification_delivery" DROP COLUMN "claim_token"`);
  }
}
