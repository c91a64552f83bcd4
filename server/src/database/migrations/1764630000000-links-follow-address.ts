import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A mailed link belongs to the address it was sent to (docs/security.md "Links belong to an
 * address"): whoever changes an account's email (any writer: the API, an import, an operator's
 * SQL) deletes the account's invitation and password-reset links in the same statement; whoever
 * changes an e-mail channel's address deletes its verification links and marks the new address
 * unverified. The services also compare the link's address with the current one when it is
 * used (links issued before this migration carry none and no longer open). PostgreSQL and PGlite.
 */
export class LinksFollowAddress1764630000000 implements MigrationInterface {
  name = 'LinksFollowAddress1764630000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE FUNCTION drop_account_links_on_email_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM url_request WHERE data->>'kind' IN ('accountInvitation', 'passwordReset') AND data->>'user_cuid' = NEW.user_cuid;
        RETURN NEW;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER "trg_user_email_drops_links" AFTER UPDATE OF email ON "user"
      FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION drop_account_links_on_email_change()`);
    await queryRunner.query(`CREATE FUNCTION drop_channel_links_on_email_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM url_request WHERE data->>'kind' = 'alertEmailVerification' AND data->>'channel_cuid' = NEW.channel_cuid;
        NEW.verified_at := NULL;
        RETURN NEW;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER "trg_email_channel_address_drops_links" BEFORE UPDATE OF email ON "email_notification_channel"
      FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION drop_channel_links_on_email_change()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "trg_email_channel_address_drops_links" ON "email_notification_channel"`);
    await queryRunner.query(`DROP FUNCTION drop_channel_links_on_email_change()`);
    await queryRunner.query(`DROP TRIGGER "trg_user_email_drops_links" ON "user"`);
    await queryRunner.query(`DROP FUNCTION drop_account_links_on_email_change()`);
  }
}
