import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type Actor, can } from '../../../shared/access/policy';
import { forbidden, notFound } from '../common/errors';
import { AppConfig } from '../config/config';
import { fieldError } from '../common/field-error';
import { systemJob } from '../common/system-job';
import { ExportTemplatesRepository, type RunTemplateRow } from './export-templates.repository';
import { ZExportConfigShape, type TExportConfig } from '../../../shared/exports/export-config.schema';
import { chargedCompany, columnDays } from './export-fairness';
import { ExportMetrics } from './export-metrics';
import type { ExportPlan, PlannedColumn } from './export-stream';
import type { TExportRunInput } from './exports.schema';

/** Who reads templates for background work (scheduled exports) and plans from a template already reached. */
const EXPORTS_JOB = systemJob('exports');

/** A template as a plan reads it: the stored row with its config checked. */
export interface ExportTemplateRow extends Omit<RunTemplateRow, 'config'> {
  config: TExportConfig;
  /** For a caller's run: the company its job is charged to (chargedCompany); for background work, the template's charged company (its schedule's). */
  charged_company_cuid?: string;
}

/**
 * Turns a template and a run request into a checked ExportPlan: the template is one the caller may
 * export (its system visible, `exports.run` there; a foreign or missing template answers NOT_FOUND
 * alike), the range within EXPORT_MAX_RANGE_DAYS, every column still a device of the template's
 * system logging that parameter.
 */
@Injectable()
export class ExportsService {
  constructor(
    private readonly templates: ExportTemplatesRepository,
    private readonly config: AppConfig,
    private readonly metrics: ExportMetrics,
  ) {}

  /** The template if the caller may run it (else NOT_FOUND / FORBIDDEN). */
  async template(actor: Actor, template_cuid: string): Promise<ExportTemplateRow> {
    const row = await this.templates.visible(actor, template_cuid);
    if (!row) throw notFound('Export template');
    if (!can(actor, 'exports.run', { company_cuid: row.company_cuid, shares: row.shares })) throw forbidden();
    return { ...this.withConfig(row), charged_company_cuid: chargedCompany(actor, row) };
  }

  /**
   * The templates a caller may run on a system (exportJob.templates): what the export dialog offers.
   * Running a template is level 3 (exports.run) while editing templates is system configuration
   * (level 2), so Basic users read them here, without the schedule's recipients.
   */
  async templatesOf(actor: Actor, system_cuid: string): Promise<{ template_cuid: string; name: string; config: Omit<TExportConfig, 'schedule'> }[]> {
    const system = await this.templates.visibleSystem(actor, system_cuid);
    if (!system) throw notFound('System');
    if (!can(actor, 'exports.run', { company_cuid: system.company_cuid, shares: system.shares })) throw forbidden();
    const rows = await this.templates.ofSystem(actor, system_cuid, 200);
    return rows.map((row) => {
      const { schedule: _schedule, ...config } = this.withConfig(row).config;
      return { template_cuid: row.template_cuid, name: row.name, config };
    });
  }

  /** A template by id for background work (scheduled exports): no caller; charged to the company that set its schedule (else the owner). */
  async templateForSystemActor(template_cuid: string, manager?: EntityManager): Promise<ExportTemplateRow | undefined> {
    const row = await this.templates.forJob(EXPORTS_JOB, template_cuid, manager);
    return row ? this.withConfig(row) : undefined;
  }

  private withConfig<T extends { config: unknown; template_cuid: string }>(row: T): Omit<T, 'config'> & { config: TExportConfig } {
    const parsed = ZExportConfigShape.safeParse(row.config ?? {});
    if (!parsed.success) throw fieldError(['template_cuid'], 'This export template is not valid any more: edit it first');
    return { ...row, config: parsed.data };
  }

  /** The checked plan of one run (field errors on the request's own fields). */
  async plan(template: ExportTemplateRow, input: Omit<TExportRunInput, 'template_cuid'>, manager?: EntityManager): Promise<ExportPlan> {
    const { config } = template;
    const maxMs = this.config.EXPORT_MAX_RANGE_DAYS * 86_400_000;
    if (input.to.getTime() - input.from.getTime() > maxMs) throw fieldError(['to'], `An export covers at most ${this.config.EXPORT_MAX_RANGE_DAYS} days`);
    if (!config.columns.length) throw fieldError(['template_cuid'], 'This export template has no columns yet');
    const size = columnDays(input.from.getTime(), input.to.getTime(), config.columns.length, config.resolution);
    if (size > this.config.EXPORT_MAX_COLUMN_DAYS) {
      this.metrics.refused('too_large');
      throw fieldError(
        ['to'],
        `This export is too large: ${size} column-days (days × columns) where at most ${this.config.EXPORT_MAX_COLUMN_DAYS} are allowed; shorten the range, or use a template with fewer columns or an hourly or daily resolution`,
      );
    }
    const columns = await this.columns(template.system_cuid, config, manager);
    return {
      system_cuid: template.system_cuid,
      columns,
      resolution: config.resolution,
      from: input.from,
      to: input.to,
      timezone: input.timezone ?? config.timezone ?? template.timezone,
      format: input.format ?? config.format,
      decimal: input.decimal ?? config.decimal,
    };
  }

  /** Each column with its header "<label or device · parameter> [unit]", checked against the system. */
  private async columns(system_cuid: string, config: TExportConfig, manager?: EntityManager): Promise<PlannedColumn[]> {
    const rows = await this.templates.columnSources(EXPORTS_JOB, system_cuid, [...new Set(config.columns.map((c) => c.entity_cuid))], manager);
    const known = new Map(rows.map((r) => [`${r.entity_cuid}\u0000${r.parameter_id}`, r]));
    return config.columns.map((c, i) => {
      const r = known.get(`${c.entity_cuid}\u0000${c.parameter_id}`);
      if (!r) throw fieldError(['template_cuid'], `Column ${i + 1} of the template names a device or parameter this system no longer has: edit the template`);
      const label = c.label || `${r.device} · ${r.description || r.parameter_id}`;
      return { entity_cuid: c.entity_cuid, parameter_id: c.parameter_id, aggregate: c.aggregate, header: r.unit ? `${label} [${r.unit}]` : label };
    });
  }

  /** The file's name: "<system> <template> <from>_<to>.csv", safe characters only. */
  fileName(template: Pick<ExportTemplateRow, 'system_name' | 'name'>, plan: ExportPlan): string {
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const base = `${template.system_name} ${template.name} ${day(plan.from)}_${day(plan.to)}`
      .normalize('NFKD')
      .replace(/[^\w.\- ]+/g, '')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 180);
    return `${base || 'export'}.${plan.format}`;
  }
}
