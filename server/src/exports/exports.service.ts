import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { type Actor, can } from '../access/policy';
import { forbidden, notFound } from '../common/errors';
import { AppConfig } from '../config/config';
import { fieldError } from '../common/field-error';
import { DATA_SOURCE } from '../database/database.module';
import { SqlParams } from '../database/sql-params';
import { systemSharesSql, visibleSystemSql } from '../tenancy/visibility';
import { ZExportConfigShape, type TExportConfig } from './export-config.schema';
import { chargedCompany, columnDays } from './export-fairness';
import { ExportMetrics } from './export-metrics';
import type { ExportPlan, PlannedColumn } from './export-stream';
import type { TExportRunInput } from './exports.schema';

export interface ExportTemplateRow {
  template_cuid: string;
  name: string;
  system_cuid: string;
  system_name: string;
  company_cuid: string;
  timezone: string;
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
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly metrics: ExportMetrics,
  ) {}


  /** The template if the caller may run it (else NOT_FOUND / FORBIDDEN). */
  async template(actor: Actor, template_cuid: string): Promise<ExportTemplateRow> {
    const p = new SqlParams([template_cuid]);
    const [row] = (await this.ds.query(
      `SELECT t.template_cuid, t.name, t.system_cuid, t.config, s.name AS system_name, s.company_cuid, s.timezone, ${systemSharesSql('s')} AS shares
         FROM system_data_export_template t
         JOIN system s ON s.system_cuid = t.system_cuid
        WHERE t.template_cuid = $1 AND ${visibleSystemSql(actor, p, 's')}`,
      p.values,
    )) as (Omit<ExportTemplateRow, 'config'> & { config: unknown; shares: { company_cuid: string; change: boolean }[] })[];
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
    const p = new SqlParams([system_cuid]);
    const [system] = (await this.ds.query(
      `SELECT s.company_cuid, ${systemSharesSql('s')} AS shares FROM system s WHERE s.system_cuid = $1 AND ${visibleSystemSql(actor, p, 's')}`,
      p.values,
    )) as { company_cuid: string; shares: { company_cuid: string; change: boolean }[] }[];
    if (!system) throw notFound('System');
    if (!can(actor, 'exports.run', { company_cuid: system.company_cuid, shares: system.shares })) throw forbidden();
    const rows = (await this.ds.query(
      `SELECT template_cuid, name, config FROM system_data_export_template WHERE system_cuid = $1 ORDER BY name, template_cuid LIMIT 200`,
      [system_cuid],
    )) as { template_cuid: string; name: string; config: unknown }[];
    return rows.map((row) => {
      const { schedule: _schedule, ...config } = this.withConfig(row).config;
      return { template_cuid: row.template_cuid, name: row.name, config };
    });
  }

  /** A template by id for background work (scheduled exports): no caller; charged to the company that set its schedule (else the owner). */
  async templateForSystemActor(template_cuid: string, manager: EntityManager = this.ds.manager): Promise<ExportTemplateRow | undefined> {
    const [row] = (await manager.query(
      `SELECT t.template_cuid, t.name, t.system_cuid, t.config, s.name AS system_name, s.company_cuid, s.timezone,
              COALESCE(t.charged_company_cuid, s.company_cuid) AS charged_company_cuid
         FROM system_data_export_template t JOIN system s ON s.system_cuid = t.system_cuid
        WHERE t.template_cuid = $1`,
      [template_cuid],
    )) as (Omit<ExportTemplateRow, 'config'> & { config: unknown })[];
    return row ? this.withConfig(row) : undefined;
  }

  private withConfig<T extends { config: unknown; template_cuid: string }>(row: T): Omit<T, 'config'> & { config: TExportConfig } {
    const parsed = ZExportConfigShape.safeParse(row.config ?? {});
    if (!parsed.success) throw fieldError(['template_cuid'], 'This export template is not valid any more: edit it first');
    return { ...row, config: parsed.data };
  }

  /** The checked plan of one run (field errors on the request's own fields). */
  async plan(template: ExportTemplateRow, input: Omit<TExportRunInput, 'template_cuid'>, manager: EntityManager = this.ds.manager): Promise<ExportPlan> {
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
  private async columns(system_cuid: string, config: TExportConfig, manager: EntityManager): Promise<PlannedColumn[]> {
    const rows = (await manager.query(
      `SELECT e.entity_cuid, e.name AS device, lp.parameter_id, lp.description, u.unit
         FROM entity e
         LEFT JOIN controller c ON c.controller_id = e.controller_id
         JOIN entity_type_log_parameter_assignment a ON a.entitytype_id = e.entitytype_id
         JOIN log_parameter lp ON lp.parameter_id = a.parameter_id
         LEFT JOIN unit u ON u.unit_cuid = lp.unit_cuid
        WHERE e.entity_cuid = ANY($1::varchar[]) AND COALESCE(e.system_cuid, c.system_cuid) = $2`,
      [[...new Set(config.columns.map((c) => c.entity_cuid))], system_cuid],
    )) as { entity_cuid: string; device: string; parameter_id: string; description: string | null; unit: string | null }[];
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
