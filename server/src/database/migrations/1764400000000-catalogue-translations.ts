import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables whose texts people read in their language (catalogue, roles, metadata template). */
const TABLES = [
  'role',
  'unit',
  'log_parameter',
  'entity_type',
  'entity_category',
  'manufacturer',
  'system_metadata_template_section',
  'system_metadata_template_fieldset',
];

/** The four roles' French texts (by level), given to roles that have none yet. */
const ROLES_FR: Record<number, { name: string; description: string }> = {
  0: { name: 'Superutilisateur', description: 'Accès complet à chaque entreprise, système et catalogue ; administre la plateforme.' },
  1: { name: 'Installateur système', description: "Installe et configure les systèmes, sites, contrôleurs, appareils et déclencheurs d'alerte." },
  2: { name: 'Expert', description: "Voit l'état, la configuration, les contrôleurs et les appareils des systèmes ; écrit le journal et les métadonnées." },
  3: { name: 'Basique', description: 'Voit les systèmes de ses entreprises, leurs tableaux de bord et leurs notifications.' },
};

/**
 * French beside English (languages issue): a `translations` jsonb column,
 * `{ "fr": { "<field>": "text" } }`, on every table whose texts users read. Runs on PostgreSQL
 * and on PGlite.
 */
export class CatalogueTranslations1764400000000 implements MigrationInterface {
  name = 'CatalogueTranslations1764400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD COLUMN "translations" jsonb NOT NULL DEFAULT '{}'`);
    }
    for (const [level, fr] of Object.entries(ROLES_FR)) {
      await queryRunner.query(`UPDATE "role" SET "translations" = jsonb_build_object('fr', jsonb_build_object('name', $1::text, 'description', $2::text)) WHERE "level" = $3 AND "translations" = '{}'`, [
        fr.name,
        fr.description,
        Number(level),
      ]);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [...TABLES].reverse()) {
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "translations"`);
    }
  }
}
