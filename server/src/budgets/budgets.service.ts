import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import { Counter } from 'prom-client';
import type { DataSource } from 'typeorm';
import { PortalMetrics } from '../common/metrics';
import { AppConfig } from '../config/config';
import { DATA_SOURCE } from '../database/database.module';
import { OldRowsSweeper } from '../database/old-rows-sweeper';
import { actingCompany } from '../access/acting-company';
import { type Actor, isSuperUser, POLICY } from '../../../shared/access/policy';
import { SpentUntil } from './spent-until';
import { BUDGET_SWEEP_SQL, BudgetRepository, type CompanyCapName, type Spend, spendIn } from './budget.repository';

type Queryable = { query(sql: string, params?: unknown[]): Promise<unknown> };

const HOUR_MS = 3600_000;
const MINUTE_MS = 60_000;

/** Mail domains whose mailboxes ignore dots in the local part (and the second name of the first). */
const DOTLESS_DOMAINS: Readonly<Record<string, string>> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The key of an address in the per-address mail budget: every spelling that reaches one mailbox
 * counts as one. Trimmed, lower-cased, without a `+tag` in the local part (`Victim+1@X.test`
 * counts as `victim@x.test`), and for Gmail without dots and under one domain
 * (`v.i.ctim@googlemail.com` counts as `victim@gmail.com`).
 */
export function mailAddressKey(address: string): string {
  const a = address.trim().toLowerCase();
  const at = a.lastIndexOf('@');
  if (at < 0) return a.slice(0, 320);
  let local = a.slice(0, at);
  let domain = a.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus >= 0) local = local.slice(0, plus);
  const dotless = Object.hasOwn(DOTLESS_DOMAINS, domain) ? DOTLESS_DOMAINS[domain] : undefined;
  if (dotless) {
    local = local.replaceAll('.', '');
    domain = dotless;
  }
  return `${local}@${domain}`.slice(0, 320);
}

/** Who pays for one mail: the acting user and their company (none in a public flow), and the address it goes to. */
export interface MailPayer {
  user_cuid?: string;
  address: string;
  company_cuids?: readonly string[];
}

/** The `budget` label of portal_budget_refusals_total (a fixed list). */
export type BudgetName =
  'mail.user' | 'mail.address' | 'mail.company' | 'command.controller' | `cap.${CompanyCapName}` | 'files.bytes' | 'files.uploads' | 'files.running';

/** A size for a message: KiB, MiB or GiB with one decimal. */
export function sizeText(bytes: number): string {
  for (const [unit, n] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
  ] as const)
    if (bytes >= n) return `${Math.round((bytes / n) * 10) / 10} ${unit}`;
  return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
}

/** The Budgets of each application, by its DataSource: for code that only holds a query runner (CRUD hooks, command checks). */
const BY_DATA_SOURCE = new WeakMap<object, Budgets>();

/**
 * The application's Budgets, found from its DataSource or a transaction's EntityManager
 * (`.connection`). Fails closed: code that spends a budget on a database whose application set
 * none up is a wiring error, never a free pass.
 */
export function budgetsOf(q: object): Budgets {
  const found = BY_DATA_SOURCE.get(q) ?? BY_DATA_SOURCE.get((q as { connection?: object }).connection ?? {});
  if (!found) throw new Error('No budgets are set up for this database (BudgetsModule missing from the application)');
  return found;
}

/**
 * The shared budgets of what costs (docs/security.md "Budgets and fair shares for everything that
 * costs"), counted in PostgreSQL (table budget_use) so several instances count the same:
 * - mails (address verifications, invitations, password resets) per user, per address and per
 *   company over the last hour (MAILS_PER_USER_PER_HOUR, MAILS_PER_ADDRESS_PER_HOUR,
 *   MAILS_PER_COMPANY_PER_HOUR);
 * - commands per controller over the last minute (COMMANDS_PER_CONTROLLER_PER_MINUTE);
 * - rows per company (TRIGGERS_PER_COMPANY, CHANNELS_PER_COMPANY, PROCESSORS_PER_COMPANY,
 *   EXPORT_SCHEDULES_PER_COMPANY: scheduled export templates charged to it), counted
 *   under a lock in the creating transaction;
 * - hosted-file bytes per company (FILES_COMPANY_MAX_BYTES, summed over hosted_file under a lock in
 *   the recording transaction) and uploads per company an hour (FILES_UPLOADS_PER_COMPANY_PER_HOUR).
 * A refusal answers 429 (a cap: 400) with a message a user can act on, and counts in
 * portal_budget_refusals_total{budget}.
 */
@Injectable()
export class Budgets implements OnModuleDestroy {
  private readonly logger = new Logger('Budgets');
  private readonly sweeper: OldRowsSweeper;
  private readonly refusals: Counter<'budget'>;
  /** Command budgets this instance found spent, until when (assertCommandRoom). */
  private readonly spent = new SpentUntil(10_000);

  constructor(
    @Inject(DATA_SOURCE) ds: DataSource,
    private readonly config: AppConfig,
    metrics: PortalMetrics,
    private readonly repo: BudgetRepository,
  ) {
    this.sweeper = new OldRowsSweeper(ds, this.logger, 'old budget uses', BUDGET_SWEEP_SQL, () => new Date(Date.now() - HOUR_MS), 10 * MINUTE_MS);
    this.refusals = new Counter({
      name: 'portal_budget_refusals_total',
      help: 'Requests refused by a budget (mails per user, address or company an hour; commands per controller a minute; rows per company; hosted-file bytes and uploads per company, running uploads per user), by budget.',
      labelNames: ['budget'],
      registers: [metrics.registry],
    });
    for (const b of [
      'mail.user',
      'mail.address',
      'mail.company',
      'command.controller',
      'cap.triggers',
      'cap.channels',
      'cap.processors',
      'cap.schedules',
      'files.bytes',
      'files.uploads',
      'files.running',
    ] as const)
      this.refusals.inc({ budget: b }, 0);
    BY_DATA_SOURCE.set(ds, this);
  }

  onModuleDestroy(): void {
    this.sweeper.stop();
  }

  /**
   * The spends of one mail. Every company budget counts per budget account (root company,
   * company_budget_root): the companies one admin created count as the company they came from.
   */
  private async mailSpends(payer: MailPayer): Promise<Spend[]> {
    const c = this.config;
    const roots = await this.repo.rootsOf(payer.company_cuids ?? []);
    // The address budget is counted per payer: each company causing the mail (verifications,
    // invitations) has its own count for the address, the public reset flow another, so no company
    // can spend another company's or the public flow's mails to an address.
    const address = mailAddressKey(payer.address);
    // (a mail an acting user causes outside any company counts under that user, never the public flow's)
    const scopes = roots.length ? roots : [payer.user_cuid ? `user:${payer.user_cuid}` : 'public'];
    const spends: Spend[] = scopes.map((scope) => ({ budget: 'mail.address', key: `${scope}:${address}`, limit: c.MAILS_PER_ADDRESS_PER_HOUR }));
    if (payer.user_cuid) spends.push({ budget: 'mail.user', key: payer.user_cuid, limit: c.MAILS_PER_USER_PER_HOUR });
    for (const company of roots) spends.push({ budget: 'mail.company', key: company, limit: c.MAILS_PER_COMPANY_PER_HOUR });
    return spends;
  }

  /** Counts one mail, or throws TOO_MANY_REQUESTS naming the budget that is spent. */
  async spendMail(payer: MailPayer): Promise<void> {
    const v = await this.repo.spend(await this.mailSpends(payer), HOUR_MS);
    if (v.ok) return;
    this.refused(v.budget as BudgetName);
    const minutes = Math.max(1, Math.ceil(v.retryAfterSeconds / 60));
    if (v.budget === 'mail.user')
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: `You have caused too many mails this hour; try again in ${minutes} min` });
    if (v.budget === 'mail.company')
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: `This company has caused too many mails this hour; try again in ${minutes} min` });
    throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: `Too many mails went to this address this hour; try again in ${minutes} min` });
  }

  /** Counts one mail of a public flow (no answer may differ): false when a budget is spent (nothing counted). */
  async trySpendMail(payer: MailPayer): Promise<boolean> {
    const v = await this.repo.spend(await this.mailSpends(payer), HOUR_MS);
    if (!v.ok) this.refused(v.budget as BudgetName);
    return v.ok;
  }

  /** Counts one mail of background work (no caller to answer): undefined when it may go, else the budget that is spent (nothing counted). */
  async refusedMail(payer: MailPayer): Promise<BudgetName | undefined> {
    const v = await this.repo.spend(await this.mailSpends(payer), HOUR_MS);
    if (v.ok) return undefined;
    this.refused(v.budget as BudgetName);
    return v.budget as BudgetName;
  }

  /**
   * Counts one command to a controller inside the transaction that stores it (`run` answers rows),
   * or throws TOO_MANY_REQUESTS (the caller's transaction then rolls back: nothing is stored).
   * Called after every check, so a refused command spends nothing. The budget is the controller's
   * for the company the sender acts from (`company_cuid`): a partner with a change share spends
   * its own, never the owner's.
   */
  async spendCommandIn(run: (sql: string, params?: unknown[]) => Promise<unknown>, controller_id: string, company_cuid: string): Promise<void> {
    const key = commandBudgetKey(controller_id, company_cuid);
    const v = await spendIn({ query: run }, [{ budget: 'command.controller', key, limit: this.config.COMMANDS_PER_CONTROLLER_PER_MINUTE }], MINUTE_MS);
    if (v.ok) return;
    // A monotonic clock: a step of the wall clock never stretches what is remembered.
    const now = performance.now();
    this.spent.remember(key, now + v.retryAfterSeconds * 1000, now);
    this.refused('command.controller');
    throw tooManyCommands(v.retryAfterSeconds);
  }

  /**
   * Before any work on a command: refuses it at once (no query, no transaction) while this
   * instance found the controller's budget for `company_cuid` spent less than a second ago
   * (SpentUntil). A minute's count only frees as time passes, so the wait it answers (from the
   * refusal's oldest use) is the database's; other instances only add uses.
   */
  assertCommandRoom(controller_id: string, company_cuid: string): void {
    const wait = this.spent.waitFor(commandBudgetKey(controller_id, company_cuid), performance.now());
    if (!wait) return;
    this.refused('command.controller');
    throw tooManyCommands(Math.max(1, Math.ceil(wait / 1000)));
  }

  /**
   * Inside the creating transaction: refuses `rows` (one) more rows of `cap` for the budget account
   * (root company) of `company_cuid` (BAD_REQUEST, with what to do); every company of that account counts.
   * The lock on (cap, root) holds until the transaction ends, so concurrent creations count one
   * after the other.
   */
  async assertRoom(tx: Queryable, cap: CompanyCapName, company_cuid: string, rows = 1): Promise<void> {
    const max = {
      triggers: this.config.TRIGGERS_PER_COMPANY,
      channels: this.config.CHANNELS_PER_COMPANY,
      processors: this.config.PROCESSORS_PER_COMPANY,
      schedules: this.config.EXPORT_SCHEDULES_PER_COMPANY,
    }[cap];
    const n = await this.repo.lockAndCount(tx, cap, await this.repo.rootOf(tx, company_cuid));
    if (n + rows <= max) return;
    this.refused(`cap.${cap}`);
    if (cap === 'triggers')
      throw new TRPCError({ code: 'BAD_REQUEST', message: `This company has reached its limit of ${max} triggers; delete one before adding another` });
    if (cap === 'channels')
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: `This company has reached its limit of ${max} notification channels; delete one before adding another`,
      });
    if (cap === 'schedules')
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: `This company has reached its limit of ${max} scheduled exports; remove a schedule before adding another`,
      });
    throw new TRPCError({ code: 'BAD_REQUEST', message: `This company has reached its limit of ${max} data processors; delete one before adding another` });
  }

  /**
   * The CRUD hook of a capped row of a system (a trigger, a data processor). A new row, or a row
   * moved to another system, is charged to the company the actor acts from on that system
   * (actingCompany: the owner when their level suffices there, else the first company by id
   * holding a change share where it does) and needs room in that company's budget account; the
   * charge is stored on the row (charged_company_cuid), never the system owner's when a partner acts.
   */
  async assertRoomForRow(
    tx: Queryable,
    cap: 'triggers' | 'processors',
    actor: Actor,
    row: Record<string, unknown>,
    current?: Record<string, unknown>,
  ): Promise<void> {
    if (typeof row.system_cuid !== 'string') return;
    if (current && current.system_cuid === row.system_cuid) return;
    const charged = await this.chargedOn(tx, cap, actor, row.system_cuid);
    if (!charged) return;
    if (!current) {
      await this.assertRoom(tx, cap, charged);
      row.charged_company_cuid = charged;
      return;
    }
    const before =
      typeof current.charged_company_cuid === 'string'
        ? current.charged_company_cuid
        : typeof current.system_cuid === 'string'
          ? (await this.repo.systemCompanies(tx, current.system_cuid))?.company_cuid
          : undefined;
    if (!before || (await this.repo.rootOf(tx, before)) !== (await this.repo.rootOf(tx, charged))) await this.assertRoom(tx, cap, charged);
    const id = current[cap === 'triggers' ? 'trigger_cuid' : 'entity_cuid'] ?? current.id;
    if (typeof id === 'string') await this.repo.setCharged(tx, cap, id, charged);
  }

  /**
   * The company a trigger or data processor `actor` writes on system `system_cuid` is charged to
   * (actingCompany through the owner or a share with change), or undefined for an unknown system.
   */
  async chargedOn(tx: Queryable, cap: 'triggers' | 'processors', actor: Actor, system_cuid: string): Promise<string | undefined> {
    const system = await this.repo.systemCompanies(tx, system_cuid);
    if (!system) return undefined;
    // acting through a share needs a share with change
    return actingCompany(actor, POLICY[cap === 'triggers' ? 'eventTriggers.change' : 'dataProcessors.create'].level, {
      company_cuid: system.company_cuid,
      shares: system.shares.filter((s) => s.change),
    });
  }

  /**
   * The CRUD hook of a device: a device written onto a system gets, after its commit, a trigger of
   * every autocreate template of its type it has none of yet (alerts' write hooks), charged like a
   * trigger its writer creates. Refuses the write (BAD_REQUEST, the triggers' message) when those
   * triggers do not fit in the writer's acting company's TRIGGERS_PER_COMPANY.
   */
  async assertRoomForTemplateTriggers(tx: Queryable, actor: Actor, row: Record<string, unknown>): Promise<void> {
    if (typeof row.system_cuid !== 'string' || typeof row.entitytype_id !== 'string' || typeof row.entity_cuid !== 'string') return;
    const rows = await this.repo.templateTriggersFor(tx, row.entitytype_id, row.entity_cuid);
    if (!rows) return;
    const charged = await this.chargedOn(tx, 'triggers', actor, row.system_cuid);
    if (charged) await this.assertRoom(tx, 'triggers', charged, rows);
  }

  /**
   * A company created by `actor`: unless a superuser created it, it joins the budget account of
   * the company its creator administers from (BudgetRepository.assignRoot). Before the creator's
   * membership of the new company is written.
   */
  async assignRoot(tx: Queryable, actor: Actor, company_cuid: string): Promise<void> {
    if (isSuperUser(actor)) return;
    await this.repo.assignRoot(tx, actor.user_cuid, company_cuid);
  }

  /**
   * An early answer before an upload is stored (no lock): PAYLOAD_TOO_LARGE when the company's
   * files plus this one would pass FILES_COMPANY_MAX_BYTES. spendFileUploadIn decides for good.
   */
  async assertFileRoom(company_cuid: string, bytes: number): Promise<void> {
    this.checkFileBytes(await this.repo.sumFileBytes(company_cuid), bytes);
  }

  /**
   * Inside the transaction that records an upload (`tx` answers rows): the company's bytes under a
   * lock, then one upload of its hourly budget. Throws PAYLOAD_TOO_LARGE (bytes) or
   * TOO_MANY_REQUESTS (uploads this hour); the caller's transaction then records nothing.
   */
  async spendFileUploadIn(tx: { query(sql: string, params?: unknown[]): Promise<unknown> }, company_cuid: string, bytes: number): Promise<void> {
    this.checkFileBytes(await this.repo.lockAndSumFileBytes(tx, company_cuid), bytes);
    const v = await spendIn(tx, [{ budget: 'files.uploads', key: company_cuid, limit: this.config.FILES_UPLOADS_PER_COMPANY_PER_HOUR }], HOUR_MS);
    if (v.ok) return;
    this.refused('files.uploads');
    const minutes = Math.max(1, Math.ceil(v.retryAfterSeconds / 60));
    throw new TRPCError({
      code: 'TOO_MANY_REQUESTS',
      message: `This company has uploaded ${this.config.FILES_UPLOADS_PER_COMPANY_PER_HOUR} files this hour, its limit; try again in ${minutes} min`,
    });
  }

  private checkFileBytes(used: number, bytes: number): void {
    const max = this.config.FILES_COMPANY_MAX_BYTES;
    if (used + bytes <= max) return;
    this.refused('files.bytes');
    throw new TRPCError({
      code: 'PAYLOAD_TOO_LARGE',
      message: `This company's files take ${sizeText(used)} of its ${sizeText(max)} limit and this file needs ${sizeText(bytes)}; delete files it no longer needs, or ask the operator for a larger limit`,
    });
  }

  /** Counts a refusal decided elsewhere (running uploads per user are counted in the instance). */
  countRefusal(budget: BudgetName): void {
    this.refused(budget);
  }

  /** The companies a user belongs to (who pays for their invitation). */
  companiesOfUser(user_cuid: string): Promise<string[]> {
    return this.repo.companiesOfUser(user_cuid);
  }

  private refused(budget: BudgetName): void {
    this.refusals.inc({ budget });
  }
}

/** The key of a controller's command budget for one acting company (budget_use.key). */
const tooManyCommands = (seconds: number) =>
  new TRPCError({ code: 'TOO_MANY_REQUESTS', message: `Too many commands to this controller this minute; try again in ${seconds} s` });

export const commandBudgetKey = (controller_id: string, company_cuid: string): string => `${controller_id}/${company_cuid}`;
