import type { Translations } from '../common/translations';
import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';
import type { JsonValue } from '../../../shared/common/enums';

/** A unit of measurement ('W', 'kWh', '°C' …). `unit_variants`: scaled forms, e.g. kW, MW. */
@Entity({ name: 'unit' })
@Unique('uq_unit_unit', ['unit'])
export class UnitEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'unit_cuid', primaryKeyConstraintName: 'pk_unit' })
  unit_cuid: string;

  @Column({ type: 'varchar', length: 32, name: 'unit' })
  unit: string;

  @Column({ type: 'text', name: 'description', nullable: true })
  description: string | null;

  @Column({ type: 'jsonb', name: 'unit_variants', default: [] })
  unit_variants: JsonValue[];

  /** Texts in other languages beside the English columns: `{ "fr": { "<field>": "text" } }`. */
  @Column({ type: 'jsonb', name: 'translations', default: {} })
  translations: Translations;
}
