import type { DataSource } from 'typeorm';
import { ROLE_LEVELS } from '../../../shared/common/enums';
import { newCuid } from '../common/ids';
import { RoleEntity } from '../users/role.entity';

const ROLE_DESCRIPTIONS: Record<number, string> = {
  0: 'Full access to every company, system and catalogue; administers the platform.',
  1: 'Installs and configures systems, sites, controllers, devices and alert triggers.',
  2: 'Sees system status, configuration, controllers and devices; writes changelog entries and metadata.',
  3: 'Sees the systems of their companies, their dashboards and notifications.',
};

/** The roles' French name and description (the migration gives the same to roles seeded before it). */
const ROLES_FR: Record<number, { name: string; description: string }> = {
  0: { name: 'Superutilisateur', description: 'Accès complet à chaque entreprise, système et catalogue ; administre la plateforme.' },
  1: { name: 'Installateur système', description: "Installe et configure les systèmes, sites, contrôleurs, appareils et déclencheurs d'alerte." },
  2: { name: 'Expert', description: "Voit l'état, la configuration, les contrôleurs et les appareils des systèmes ; écrit le journal et les métadonnées." },
  3: { name: 'Basique', description: 'Voit les systèmes de ses entreprises, leurs tableaux de bord et leurs notifications.' },
};

// ---- roles ------------------------------------------------------------------------------------

/** The four roles of spec §6. Idempotent: an existing role (matched by level) is left as it is. */
export async function seedRoles(ds: DataSource): Promise<void> {
  await ds
    .createQueryBuilder()
    .insert()
    .into(RoleEntity)
    .values(
      ROLE_LEVELS.map((r) => ({
        role_cuid: newCuid(),
        name: r.name,
        level: r.level,
        description: ROLE_DESCRIPTIONS[r.level],
        translations: { fr: ROLES_FR[r.level] },
      })),
    )
    .orIgnore()
    .execute();
}
