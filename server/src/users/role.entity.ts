import type { Translations } from '../common/translations';
import { Check, Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** A role of spec §6. Lower level is more powerful: 0 Superuser … 3 Basic. */
@Entity({ name: 'role' })
@Unique('uq_role_name', ['name'])
@Unique('uq_role_level', ['level'])
@Check('ck_role_level', `level BETWEEN 0 AND 3`)
export class RoleEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'role_cuid', primaryKeyConstraintName: 'pk_role' })
  role_cuid: string;

  @Column({ type: 'varchar', length: 200, name: 'name' })
  name: string;

  @Column({ type: 'smallint', name: 'level' })
  level: number;

  @Column({ type: 'text', name: 'description', nullable: true })
  description: string | null;

  /** Texts in other languages beside the English columns: `{ "fr": { "<field>": "text" } }`. */
  @Column({ type: 'jsonb', name: 'translations', default: {} })
  translations: Translations;
}
