import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { Translations } from '../common/translations';
import { DATA_SOURCE } from '../database/database.module';
import type { Queryable } from '../database/repository';
import { SqlParams } from '../database/sql-params';
import { type Caller, visibleSystemSql } from '../tenancy/visibility';
import type { TemplateSection } from './system-metadata.schema';

export type TemplateSectionRow = Omit<TemplateSection, 'fieldsets'>;
export interface TemplateFieldsetRow {
  fieldset_id: number;
  title: string;
  description: string | null;
  section_index: number;
  section_id: number;
  data: unknown;
  translations: Translations;
}
export interface SystemMetadataRow {
  metadata_cuid: string;
  system_cuid: string;
  data: Record<string, unknown>;
}

/** Record fields read with each system_metadata row by the generic CRUD (alias `t`), which applies the caller's scope. */
export const METADATA_SELECT_EXPRESSIONS = { system_name: '(SELECT s.name FROM system s WHERE s.system_cuid = t.system_cuid)' };

/**
 * The SQL of the metadata form: the template (a global catalogue, the same for every caller) and
 * a system's filled-in form (read and written only for a system the caller sees). Methods take
 * the caller first; `tx` is the caller's transaction where one is open.
 */
@Injectable()
export class SystemMetadataRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /** Runs `work` in one transaction. */
  transaction<T>(_caller: Caller, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(work);
  }

  /** Unscoped (a global catalogue): the template's sections in `index` order. */
  async sections(_caller: Caller, tx: Queryable = this.ds): Promise<TemplateSectionRow[]> {
    return (await tx.query(
      `SELECT section_id, title, description, "isPhaseSection", "index", translations FROM system_metadata_template_section ORDER BY "index", section_id`,
    )) as TemplateSectionRow[];
  }

  /** Unscoped (a global catalogue): the active fieldsets in `section_index` order. */
  async activeFieldsets(_caller: Caller, tx: Queryable = this.ds): Promise<TemplateFieldsetRow[]> {
    return (await tx.query(
      `SELECT fieldset_id, title, description, section_index, section_id, data, translations FROM system_metadata_template_fieldset
        WHERE active ORDER BY section_index, fieldset_id`,
    )) as TemplateFieldsetRow[];
  }

  /** Unscoped (a global catalogue): whether the section exists. */
  async sectionExists(_caller: Caller, section_id: unknown, tx: Queryable = this.ds): Promise<boolean> {
    const [section] = await tx.query(`SELECT 1 FROM system_metadata_template_section WHERE section_id = $1`, [section_id]);
    return !!section;
  }

  /** The form of a system the caller sees, if it was ever saved. */
  async ofSystem(caller: Caller, system_cuid: string, tx: Queryable = this.ds): Promise<Omit<SystemMetadataRow, 'system_cuid'> | undefined> {
    const p = new SqlParams([system_cuid]);
    const [row] = (await tx.query(
      `SELECT m.metadata_cuid, m.data FROM system_metadata m JOIN system s ON s.system_cuid = m.system_cuid
        WHERE m.system_cuid = $1 AND ${visibleSystemSql(caller, p, 's')}`,
      p.values,
    )) as Omit<SystemMetadataRow, 'system_cuid'>[];
    return row;
  }

  /** Writes the whole form of a system the caller sees (creating its row on first save); undefined for another system. */
  async upsert(
    caller: Caller,
    tx: Queryable,
    metadata_cuid: string,
    system_cuid: string,
    data: Record<string, unknown>,
  ): Promise<SystemMetadataRow | undefined> {
    const p = new SqlParams([metadata_cuid, system_cuid, JSON.stringify(data)]);
    const [row] = (await tx.query(
      `INSERT INTO system_metadata (metadata_cuid, system_cuid, data)
       SELECT $1::varchar, s.system_cuid, $3::jsonb FROM system s WHERE s.system_cuid = $2 AND ${visibleSystemSql(caller, p, 's')}
       ON CONFLICT (system_cuid) DO UPDATE SET data = EXCLUDED.data
       RETURNING metadata_cuid, system_cuid, data`,
      p.values,
    )) as SystemMetadataRow[];
    return row;
  }
}
