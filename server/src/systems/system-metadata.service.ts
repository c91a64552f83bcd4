import type { Translations } from '../common/translations';
import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { type Actor, can } from '../access/policy';
import { newCuid } from '../common/ids';
import { CrudService } from '../crud/crud.service';
import { fieldErrors } from '../common/field-error';
import { DATA_SOURCE } from '../database/database.module';
import { SystemAccessService } from './system-access.service';
import { type TemplateSection, validateMetadata, ZFieldsetData } from './system-metadata.schema';

/** The metadata template (sections with their active fieldsets) and a system's filled-in form. */
@Injectable()
export class SystemMetadataService {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly systems: SystemAccessService,
    private readonly crud: CrudService,
  ) {}

  /** Sections in `index` order, each with its active fieldsets in `section_index` order. */
  async template(manager: EntityManager = this.ds.manager): Promise<TemplateSection[]> {
    const sections = (await manager.query(
      `SELECT section_id, title, description, "isPhaseSection", "index", translations FROM system_metadata_template_section ORDER BY "index", section_id`,
    )) as Omit<TemplateSection, 'fieldsets'>[];
    const fieldsets = (await manager.query(
      `SELECT fieldset_id, title, description, section_index, section_id, data, translations FROM system_metadata_template_fieldset
        WHERE active ORDER BY section_index, fieldset_id`,
    )) as { fieldset_id: number; title: string; description: string | null; section_index: number; section_id: number; data: unknown; translations: Translations }[];
    return sections.map((s) => ({
      ...s,
      fieldsets: fieldsets
        .filter((f) => f.section_id === s.section_id)
        .map((f) => {
          // A fieldset stored in an older or broken shape shows no fields rather than failing the form.
          const parsed = ZFieldsetData.safeParse(f.data);
          return {
            fieldset_id: f.fieldset_id,
            title: f.title,
            description: f.description,
            section_index: f.section_index,
            fields: parsed.success ? parsed.data.fields : [],
            translations: f.translations ?? {},
          };
        }),
    }));
  }

  /** 400 with one field error per problem when `data` does not fit the active template. */
  async assertValid(data: unknown, manager: EntityManager = this.ds.manager): Promise<void> {
    const issues = validateMetadata(await this.template(manager), data);
    if (issues.length) throw fieldErrors(issues, 'The metadata does not fit the template');
  }

  async forSystem(actor: Actor, system_cuid: string) {
    const system = await this.systems.authorize(actor, 'metadata.view', system_cuid);
    const [row] = (await this.ds.query(`SELECT metadata_cuid, data FROM system_metadata WHERE system_cuid = $1`, [system_cuid])) as {
      metadata_cuid: string;
      data: Record<string, unknown>;
    }[];
    return {
      template: await this.template(),
      data: row?.data ?? {},
      metadata_cuid: row?.metadata_cuid ?? null,
      canChange: can(actor, 'metadata.change', { company_cuid: system.company_cuid, shares: system.shares }),
    };
  }

  /** Writes a system's whole metadata form (creates the row on first save). */
  async save(actor: Actor, system_cuid: string, data: Record<string, unknown>) {
    const saved = await this.ds.transaction(async (tx) => {
      await this.systems.authorize(actor, 'metadata.change', system_cuid, tx);
      await this.assertValid(data, tx);
      const [row] = (await tx.query(
        `INSERT INTO system_metadata (metadata_cuid, system_cuid, data) VALUES ($1, $2, $3)
         ON CONFLICT (system_cuid) DO UPDATE SET data = EXCLUDED.data
         RETURNING metadata_cuid, system_cuid, data`,
        [newCuid(), system_cuid, JSON.stringify(data)],
      )) as { metadata_cuid: string; system_cuid: string; data: Record<string, unknown> }[];
      return row;
    });
    this.crud.forgetAllCounts(); // a first save adds a systemMetadata row
    return saved;
  }
}
