import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { JsonObject } from '../../../shared/common/enums';

/**
 * A one-time link (password reset, e-mail verification, invitation …): the token is the key and
 * `data` says what the link does. Expired rows are purged by the maintenance job.
 */
@Entity({ name: 'url_request' })
@Index('ix_url_request_expires_at', ['expires_at'])
export class UrlRequestEntity {
  @PrimaryColumn({ type: 'varchar', length: 32, name: 'token_cuid', primaryKeyConstraintName: 'pk_url_request' })
  token_cuid: string;

  @Column({ type: 'jsonb', name: 'data', default: {} })
  data: JsonObject;

  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' })
  created_at: Date;

  @Column({ type: 'timestamptz', name: 'expires_at' })
  expires_at: Date;
}
