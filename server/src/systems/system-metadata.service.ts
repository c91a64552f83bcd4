import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type Actor, can } from '../../../shared/access/policy';
import { newCuid } from '../common/ids';
import { notFound } from '../common/errors';
import { CrudService } from '../crud/crud.service';
import { fieldErrors } from '../common/field-error';
import { SystemAccessService } from './system-access.service';
import { SystemMetadataRepository } from './system-metadata.repository';
import { type TemplateSection, validateMetadata, ZFieldsetData } from './system-metadata.schema';

/** The metadata template (sections with their active fieldsets) and a system's filled-in form. */
@Injectable()
export class SystemMetadataService {
  constructor(
    private readonly repo: SystemMetadataRepository,
    private readonly systems: SystemAccessService,
    private readonly crud: CrudService,
  ) {}

  /** Sections in `index` order, each with its active fieldsets in `section_index` order. */
  async template(actor: Actor, manager?: EntityManager): Promise<TemplateSection[]> {
    const sections = await this.repo.sections(actor, manager);
    const fieldsets = await this.repo.activeFieldsets(actor, manager);
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
  async assertValid(actor: Actor, data: unknown, manager?: EntityManager): Promise<void> {
    const issues = validateMetadata(await this.template(actor, manager), data);
    if (issues.length) throw fieldErrors(issues, 'The metadata does not fit the template');
  }

  async forSystem(actor: Actor, system_cuid: string) {
    const system = await this.systems.authorize(actor, 'metadata.view', system_cuid);
    const row = await this.repo.ofSystem(actor, system_cuid);
    return {
      template: await this.template(actor),
      data: row?.data ?? {},
      metadata_cuid: row?.metadata_cuid ?? null,
      canChange: can(actor, 'metadata.change', { company_cuid: system.company_cuid, shares: system.shares }),
    };
  }

  /** Writes a system's whole metadata form (creates the row on first save). */
  async save(actor: Actor, system_cuid: string, data: Record<string, unknown>) {
    const saved = await this.repo.transaction(actor, async (tx) => {
      await this.systems.authorize(actor, 'metadata.change', system_cuid, tx);
      await this.assertValid(actor, data, tx);
      const row = await this.repo.upsert(actor, tx, newCuid(), system_cuid, data);
      // Authorized just before in the same transaction: only a system deleted meanwhile lands here.
      if (!row) throw notFound('System');
      return row;
    });
    this.crud.forgetAllCounts(); // a first save adds a systemMetadata row
    return saved;
  }
}
