import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hosted files (issue 4, back office): what the list screen and the download need beyond the
 * spec's columns — the size in bytes, the name the file had on the uploader's machine (shown
 * and offered on download, never used to build the object key), who uploaded it and when.
 *
 * hosted_file_orphan: the object keys of deleted rows, filled by a trigger, so an object is
 * removed from storage however its row went (deleted by the files service, or by a cascade when
 * its company, system, domain or root domain is deleted). The files service empties it.
 * No entity: only the files service reads it, with SQL.
 * Runs on PostgreSQL and on PGlite.
 */
export class HostedFileDetails1763910000000 implements MigrationInterface {
  name = 'HostedFileDetails1763910000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "hosted_file"
      ADD COLUMN "size" integer NOT NULL DEFAULT 0,
      ADD COLUMN "fileName" varchar(255),
      ADD COLUMN "uploaded_by_user_cuid" varchar(32),
      ADD COLUMN "created_at" timestamptz NOT NULL DEFAULT now(),
      ADD CONSTRAINT "ck_hosted_file_size" CHECK ("size" >= 0),
      ADD CONSTRAINT "fk_hosted_file_uploaded_by_user_cuid" FOREIGN KEY ("uploaded_by_user_cuid")
        REFERENCES "user" ("user_cuid") ON DELETE SET NULL`);
    await queryRunner.query(`CREATE INDEX "ix_hosted_file_uploaded_by_user_cuid" ON "hosted_file" ("uploaded_by_user_cuid")`);
    await queryRunner.query(`CREATE TABLE "hosted_file_orphan" (
      "objectKey" varchar(1024) NOT NULL,
      "deleted_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "pk_hosted_file_orphan" PRIMARY KEY ("objectKey")
    )`);
    await queryRunner.query(`CREATE FUNCTION queue_hosted_file_orphan()
      RETURNS trigger
      LANGUAGE plpgsql
      AS $fn$
      BEGIN
        INSERT INTO hosted_file_orphan ("objectKey") VALUES (OLD."objectKey") ON CONFLICT DO NOTHING;
        RETURN NULL;
      END
      $fn$`);
    await queryRunner.query(`CREATE TRIGGER "trg_hosted_file_queue_orphan"
      AFTER DELETE ON "hosted_file"
      FOR EACH ROW EXECUTE FUNCTION queue_hosted_file_orphan()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "trg_hosted_file_queue_orphan" ON "hosted_file"`);
    await queryRunner.query(`DROP FUNCTION queue_hosted_file_orphan()`);
    await queryRunner.query(`DROP TABLE "hosted_file_orphan"`);
    await queryRunner.query(`DROP INDEX "ix_hosted_file_uploaded_by_user_cuid"`);
    await queryRunner.query(`ALTER TABLE "hosted_file"
      DROP CONSTRAINT "fk_hosted_file_uploaded_by_user_cuid",
      DROP CONSTRAINT "ck_hosted_file_size",
      DROP COLUMN "created_at",
      DROP COLUMN "uploaded_by_user_cuid",
      DROP COLUMN "fileName",
      DROP COLUMN "size"`);
  }
}
