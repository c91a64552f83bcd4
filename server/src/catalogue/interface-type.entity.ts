import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** A field-bus / network interface kind, e.g. 'modbus-tcp', 've-can'. */
@Entity({ name: 'interface_type' })
@Check('ck_interface_type_slug', `interfacetype_id ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'`)
export class InterfaceTypeEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, name: 'interfacetype_id', primaryKeyConstraintName: 'pk_interface_type' })
  interfacetype_id: string;

  /** Whether several devices can share one interface of this kind (a bus). */
  @Column({ type: 'boolean', name: 'multidevice_support', default: false })
  multidevice_support: boolean;
}
