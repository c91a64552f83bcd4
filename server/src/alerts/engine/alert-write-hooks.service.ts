import { Inject, Injectable, Logger } from '@nestjs/common';
import type { z } from 'zod';
import { newCuid } from '../../common/ids';
import type { CrudHooks } from '../../crud/crud-router.factory';
import { fieldError, fieldErrors } from '../../common/field-error';
import { type TTemplateRule, ZTemplateRule, ZTriggerRule } from '../../../../shared/alerts/rules';
import { AlertEngine } from './alert-engine.worker';
import { type AlertWriteHooksRepository, SqlAlertWriteHooksRepository, type TemplateRow } from './alert-write-hooks.repository';
import { ALERT_WRITES_JOB as JOB } from './job-identity';
import type { Actor } from '../../../../shared/access/policy';
import { budgetsOf } from '../../budgets/budgets.service';
import { textOf } from '../../../../shared/common/text';

type Row = Record<string, unknown>;

/** Fields whose hand edit marks a trigger made from a template as customized (is_active is not one: pausing is not editing). */
const CUSTOMIZING = ['name', 'message', 'release_message', 'severity_level', 'args'] as const;

const issuesOf = (error: z.ZodError) =>
  error.issues.map((i) => ({ path: ['args', ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))], message: i.message }));

/** The name of a trigger made from a template for one device. */
export const autocreatedName = (template: string, device: string): string => `${template} – ${device}`.slice(0, 200);

/**
 * The write side of alerts, as hooks of the generated CRUD routers (mounted in api/resource-routers.ts,
 * the composition root, so lower layers never import alerts/):
 * - notificationTrigger: args must parse as a rule, and name a device / parameter / controller of
 *   the trigger's own system (NOT_FOUND otherwise; a parameter must be one the device's type logs);
 *   a hand edit of a trigger made from a template sets customized_at; the engine reloads.
 * - notificationTemplateAssignment: args must parse as a template rule whose parameter the entity
 *   type logs; with autocreate_triggers, triggers are made for every device of the type and kept in
 *   step with the template (customized ones are left alone).
 * - entity (devices): a new device gets the triggers of its type's autocreate templates.
 */
@Injectable()
export class AlertWriteHooks {
  private readonly logger = new Logger('AlertWrites');

  constructor(
    @Inject(SqlAlertWriteHooksRepository) private readonly rows: AlertWriteHooksRepository,
    private readonly engine: AlertEngine,
  ) {}

  readonly trigger: CrudHooks = {
    checkInput: (kind, data, ids, actor) => this.checkTrigger(kind, data, ids, actor),
    afterCommit: async ({ kind, ids, data }) => {
      if (kind === 'update' && data && CUSTOMIZING.some((f) => data[f] !== undefined)) {
        await this.rows.markCustomized(JOB, ids);
      }
      // New args, or a trigger switched back on: the timer judges it again now.
      if (kind === 'update' && (data?.args !== undefined || data?.is_active === true)) await this.restartJudgement(ids);
      await this.reload();
    },
  };

  readonly template: CrudHooks = {
    checkInput: (kind, data, ids) => this.checkTemplate(kind, data, ids),
    afterCommit: async ({ kind, ids }) => {
      if (kind !== 'delete') await this.syncTemplates(ids);
      // Deleted: its triggers stay, detached (assignment_cuid SET NULL by the foreign key).
      await this.reload();
    },
  };

  readonly device: CrudHooks = {
    afterCommit: async ({ kind, ids, actor }) => {
      if (kind === 'delete') return this.reload();
      if (await this.autocreateForDevices(ids, actor)) await this.reload();
    },
  };

  /**
   * The engine's index after a committed write. A failure is logged, not answered: the write is
   * stored, and the periodic check (ALERTS_INDEX_CHECK_SECONDS) reloads later. The other instances
   * reload at once on the `triggers` signal.
   */
  private async reload(): Promise<void> {
    try {
      await this.engine.reloadEverywhere();
    } catch (e) {
      this.logger.warn(`trigger index not reloaded: ${(e as Error).message}`);
      this.engine.markStale();
    }
  }

  // ---- triggers ---------------------------------------------------------------------------------

  private async checkTrigger(kind: 'create' | 'update', data: Row, ids: readonly string[] | undefined, actor: Actor): Promise<void> {
    if (data.args === undefined) return;
    const parsed = ZTriggerRule.safeParse(data.args);
    if (!parsed.success) throw fieldErrors(issuesOf(parsed.error), 'The rule is not valid');
    // Only systems the caller sees: this runs before the write's scope check, and a rule checked in
    // another company's system would tell its controllers and devices apart from unknown ones.
    const systems =
      kind === 'create'
        ? (await this.rows.systemVisible(actor, String(data.system_cuid)))
          ? [String(data.system_cuid)]
          : []
        : await this.rows.systemsOfTriggers(actor, ids ?? []);
    // Unknown or foreign triggers and systems: the write itself answers NOT_FOUND, as for any other field.
    for (const system_cuid of systems) await this.checkRuleInSystem(parsed.data, system_cuid);
  }

  /** Every device, parameter and controller a rule names must be of the system (answers like a missing one otherwise). */
  private async checkRuleInSystem(rule: z.infer<typeof ZTriggerRule>, system_cuid: string): Promise<void> {
    if (rule.kind === 'offline') {
      if (rule.controller_id === undefined) return;
      if (!(await this.rows.controllerInSystem(JOB, rule.controller_id, system_cuid)))
        throw fieldError(['args', 'controller_id'], 'Controller not found in this system', 'NOT_FOUND');
      return;
    }
    const entitytype_id = await this.rows.deviceTypeInSystem(JOB, rule.entity_cuid, system_cuid);
    if (entitytype_id === undefined) throw fieldError(['args', 'entity_cuid'], 'Device not found in this system', 'NOT_FOUND');
    if (rule.kind === 'threshold' || rule.kind === 'no_data') await this.checkParameter(entitytype_id, rule.parameter_id);
  }

  /** The parameter must be one the device type logs (ingest refuses any other, so a rule on it could never see a value). */
  private async checkParameter(entitytype_id: string, parameter_id: string): Promise<void> {
    if (!(await this.rows.typeLogsParameter(JOB, entitytype_id, parameter_id)))
      throw fieldError(['args', 'parameter_id'], 'Parameter not found for this device type', 'NOT_FOUND');
  }

  /** New args: a running duration no longer means anything; the timer judges the trigger again now. */
  private async restartJudgement(ids: string[]): Promise<void> {
    await this.rows.restartJudgement(JOB, ids);
  }

  // ---- templates --------------------------------------------------------------------------------

  private async checkTemplate(kind: 'create' | 'update', data: Row, ids?: readonly string[]): Promise<void> {
    if (data.args === undefined) return;
    const parsed = ZTemplateRule.safeParse(data.args);
    if (!parsed.success) throw fieldErrors(issuesOf(parsed.error), 'The rule is not valid');
    const rule = parsed.data;
    if (rule.kind === 'state') return;
    const types = kind === 'create' ? [String(data.entitytype_id)] : await this.rows.entityTypesOfTemplates(JOB, ids ?? []);
    for (const t of types) await this.checkParameter(t, rule.parameter_id);
  }

  /**
   * A template's triggers: with autocreate_triggers, one per device of its entity type (those
   * missing are created); every trigger made from it and not customized gets the template's name,
   * message, release message, severity and args. Answers how many triggers were written.
   */
  async syncTemplates(assignmentIds: readonly string[]): Promise<number> {
    let written = 0;
    const templates = await this.rows.templates(JOB, assignmentIds);
    for (const tpl of templates) {
      const rule = ZTemplateRule.safeParse(tpl.args);
      if (!rule.success) {
        this.logger.warn(`template ${String(tpl.assignment_cuid)} has args that do not parse: no triggers made or updated`);
        continue;
      }
      const linked = await this.rows.linkedTriggers(JOB, tpl.assignment_cuid);
      for (const t of linked) {
        const entity_cuid = textOf((t.args as Row)?.entity_cuid ?? '');
        await this.rows.updateTemplated(JOB, t.trigger_cuid, {
          name: autocreatedName(String(tpl.name), String(t.device ?? entity_cuid)),
          message: tpl.message,
          release_message: tpl.release_message,
          severity_level: tpl.severity_level,
          args: this.ruleFor(rule.data, entity_cuid),
        });
        written++;
      }
      if (linked.length) await this.restartJudgement(linked.map((t) => String(t.trigger_cuid)));
      if (tpl.autocreate_triggers) written += await this.createMissing(String(tpl.assignment_cuid));
    }
    return written;
  }

  /**
   * Devices just created (or changed): the triggers of their types' autocreate templates, charged
   * like triggers `actor` creates (the device hook checked the room in the writing transaction).
   */
  async autocreateForDevices(entityIds: readonly string[], actor?: Actor): Promise<number> {
    if (!entityIds.length) return 0;
    const templates = await this.rows.autocreateTemplatesFor(JOB, entityIds);
    let written = 0;
    for (const assignment_cuid of templates) written += await this.createMissing(assignment_cuid, entityIds, actor);
    return written;
  }

  /**
   * Creates the template's trigger for each device of its type (of `entityIds`, when given) with a system that has none
   * from it yet. With an `actor` (their device write made them), each is charged to the company the
   * actor acts from on its system and needs room there (TRIGGERS_PER_COMPANY, under the cap's lock,
   * in the inserting transaction); a template's own sync (an operator's act) charges the systems' owners.
   */
  private async createMissing(assignment_cuid: string, entityIds?: readonly string[], actor?: Actor): Promise<number> {
    const tpl: TemplateRow | undefined = await this.rows.template(JOB, assignment_cuid);
    const rule = tpl && ZTemplateRule.safeParse(tpl.args);
    if (!tpl || !rule || !rule.success) return 0;
    const devices = await this.rows.devicesWithoutTrigger(JOB, { assignment_cuid, entitytype_id: tpl.entitytype_id }, entityIds);
    if (!devices.length) return 0;
    await this.rows.transaction(JOB, async (tx) => {
      const charged: (string | null)[] = [];
      if (actor) {
        const budgets = budgetsOf(tx);
        for (const d of devices) charged.push((await budgets.chargedOn(tx, 'triggers', actor, String(d.system_cuid))) ?? null);
        const perCompany = new Map<string, number>();
        for (const c of charged) if (c) perCompany.set(c, (perCompany.get(c) ?? 0) + 1);
        for (const [company, n] of [...perCompany].sort(([a], [b]) => (a < b ? -1 : 1))) await budgets.assertRoom(tx, 'triggers', company, n);
      }
      await this.rows.insertTemplated(
        JOB,
        tx,
        { assignment_cuid, severity_level: tpl.severity_level, message: tpl.message, release_message: tpl.release_message },
        devices.map((d, i) => ({
          trigger_cuid: newCuid(),
          args: this.ruleFor(rule.data, String(d.entity_cuid)),
          name: autocreatedName(String(tpl.name), String(d.name)),
          system_cuid: d.system_cuid,
          charged_company_cuid: charged[i] ?? null,
        })),
      );
    });
    return devices.length;
  }

  private ruleFor(rule: TTemplateRule, entity_cuid: string): Row {
    return { ...rule, entity_cuid };
  }
}
