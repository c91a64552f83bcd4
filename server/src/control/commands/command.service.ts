import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit, Optional } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import { type Actor, can } from '../../../../shared/access/policy';
import type { TSessionPayload } from '../../auth/session.schema';
import { Budgets } from '../../budgets/budgets.service';
import { forbidden, notFound } from '../../common/errors';
import { fieldError } from '../../common/field-error';
import { newCuid } from '../../common/ids';
import { sameJson } from '../../../../shared/common/json';
import { systemJob } from '../../common/system-job';
import { AppConfig } from '../../config/config';
import { applyMergePatch, type TCommandMessage, ZCommandAck } from '../../../../shared/controllers/command-wire';
import { SharedSignals, SIGNAL_TOPICS } from '../../database/shared-signals';
import { LiveEventsService } from '../../alerts/portal/live-events.service';
import { COMMAND_LINK, CommandAckError, type CommandLink } from '../../gateway/command-link';
import { ControllerOnlineStateService } from '../../telemetry/controller-online-state.service';
import { judgeAcks } from './ack-rules';
import { CommandAcksRepository } from './command-acks.repository';
import { CommandAcksWorker, type QueuedAck } from './command-acks.worker';
import { checkCommand, spendCommandBudget } from './command-checks';
import { type AckOutcome, CommandInbox } from './command-inbox';
import { byRequestedAt, type CommandNotice, commandChangelog, commandToast, finalNotice, toMessage } from './command-notices';
import { type CommandRow, CommandQueueRepository, type ControllerInfo } from './command-queue.repository';
import { type CommandController, CommandsRepository, type CommandTx } from './commands.repository';
import type { TCommandRecord, TSendCommandInput } from './commands.schema';
import { StepUpService } from './step-up.service';

const WORKER_BATCH = 500;
/** How long a controller's name and declared commands are reused for toasts and changelog titles. */
const INFO_CACHE_MS = 5000;
/** Tables the controller info is read from (a write to one, on any instance, drops the cache). */
const INFO_TABLES = new Set(['controller', 'controller_type', 'system']);
/** Who the background statements run for: delivery and timeouts, and the acknowledgement batches. */
const WORKER = systemJob('commands.worker');
const ACKS = systemJob('commands.acks');

/**
 * Commands to controllers (docs/control.md, *Commands*): send (checks, step-up, idempotency,
 * store, PENDING toast, delivery when reachable), the controller's acknowledgements (CommandInbox,
 * batched by CommandAcksWorker, judged by ack-rules.ts), and one round of the worker (tick, run by
 * CommandsWorker): deliver stored commands to controllers that came back, end the ones that got no
 * answer (TIMEOUT) or could not be delivered in time (EXPIRED). The SQL is in the repositories.
 *
 * Delivery: a command is claimed under a row lock (SKIP LOCKED, so several instances never hand
 * the same one over at once) and marked SENT in a short transaction, then handed to the broker;
 * if the broker refuses it goes back to PENDING. A controller de-duplicates by id, so a hand-over
 * repeated after a reconnect never runs it twice.
 */
@Injectable()
export class CommandService extends CommandInbox implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Commands');
  private readonly ackQueue: QueuedAck[] = [];
  private readonly acks: CommandAcksWorker<CommandRow>;
  private readonly background = new Set<Promise<unknown>>();
  /** Names, declared commands and time zones of controllers, for toasts and changelog titles (a backlog acks many at once). */
  private readonly infoCache = new Map<string, { info: ControllerInfo; until: number }>();

  constructor(
    private readonly commands: CommandsRepository,
    private readonly queue: CommandQueueRepository,
    private readonly ackRows: CommandAcksRepository,
    private readonly stepUps: StepUpService,
    private readonly budgets: Budgets,
    private readonly config: AppConfig,
    private readonly live: LiveEventsService,
    @Optional() private readonly online?: ControllerOnlineStateService,
    @Optional() @Inject(COMMAND_LINK) private readonly link?: CommandLink,
    @Optional() signals?: SharedSignals,
  ) {
    super();
    this.acks = new CommandAcksWorker<CommandRow>(this.ackQueue, {
      write: (part) => this.writeAcks(part),
      afterCommit: (finished) => this.finalToasts(finished),
      track: (work) => this.later(work),
      warn: (message) => this.logger.warn(message),
    });
    // A controller renamed, retyped or moved on any instance: its cached info goes.
    signals?.on(SIGNAL_TOPICS.table, (table) => {
      if (table === null || INFO_TABLES.has(table)) this.infoCache.clear();
    });
  }

  onModuleInit(): void {
    this.link?.onCommandAck(async (controller_id, payload) => {
      let body: unknown;
      try {
        body = JSON.parse(payload.toString('utf8'));
      } catch {
        throw new CommandAckError(400, 'BAD_REQUEST', 'The acknowledgement is not valid JSON');
      }
      await this.ack(controller_id, body, 'mqtt');
    });
    this.link?.onCommandSubscribe((controller_id) => this.later(this.redeliver(controller_id)));
    this.online?.onTransition((t) => {
      if (t.state === 'ONLINE') this.later(this.redeliver(t.controller_id));
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.acks.flush();
    // A finished ack write starts the next batch: wait until none is left.
    await this.settle();
  }

  /** Waits for background deliveries (tests). */
  async settle(): Promise<void> {
    while (this.background.size) await Promise.allSettled([...this.background]);
  }

  private later(work: Promise<unknown>): void {
    const p = work.catch((e) => this.logger.warn(`command delivery failed: ${(e as Error).message}`)).finally(() => this.background.delete(p));
    this.background.add(p);
  }

  // ---- Reads -------------------------------------------------------------------------------

  /** The controller if the caller sees it (a member of its company, or a superuser), else NOT_FOUND. */
  async visibleController(actor: Actor, controller_id: string): Promise<CommandController> {
    const row = await this.commands.visibleController(actor, controller_id);
    if (!row) throw notFound('Controller');
    return row;
  }

  /** May the caller configure this controller (controllers.configure against its company and its system's shares)? */
  mayConfigure(actor: Actor, c: CommandController): boolean {
    return can(actor, 'controllers.configure', { company_cuid: c.company_cuid, shares: c.shares });
  }

  // ---- Send --------------------------------------------------------------------------------

  /**
   * An installer's command (controllerCommand.send, controllerConfig.apply). `address` is the
   * caller's address (the step-up's password brake).
   */
  async send(actor: Actor, session: TSessionPayload, input: TSendCommandInput, address = 'unknown'): Promise<TCommandRecord> {
    const controller = await this.visibleController(actor, input.controller_id);
    if (!this.mayConfigure(actor, controller)) throw forbidden('You may not send commands to this controller');

    const payload = input.payload ?? {};
    if (input.id) {
      const again = await this.repeated(actor, input.id, controller.controller_id, input.kind, payload);
      if (again) return again;
    }
    const checked = await checkCommand(this.budgets, this.commands, actor, controller, input.kind, payload);

    const now = Date.now();
    const not_after = input.not_after ?? new Date(now + this.config.COMMAND_DEFAULT_TTL_SECONDS * 1000);
    if (!(not_after.getTime() > now)) throw fieldError(['not_after'], 'Must be in the future');
    if (not_after.getTime() > now + this.config.COMMAND_MAX_TTL_SECONDS * 1000) {
      throw fieldError(['not_after'], `At most ${Math.round(this.config.COMMAND_MAX_TTL_SECONDS / 3600)} hours ahead`);
    }

    if (checked.dangerous) await this.stepUps.require(actor, session, input.password, address);

    const command_id = input.id ?? newCuid();
    const inserted = await this.commands.transaction(async (tx) => {
      // An apply_config rewrites the controller's desired config: its row is locked before the insert.
      if (input.kind === 'apply_config') await this.commands.lockController(actor, tx, controller.controller_id);
      const stored = await this.commands.insert(actor, tx, {
        command_id,
        controller_id: controller.controller_id,
        company_cuid: controller.company_cuid,
        system_cuid: controller.system_cuid,
        kind: input.kind,
        payload: checked.payload,
        dangerous: checked.dangerous,
        not_after,
      });
      if (!stored) return false;
      await spendCommandBudget(this.budgets, tx, actor, controller);
      if (input.kind === 'apply_config') await this.mergeDesired(actor, tx, controller.controller_id, checked.payload);
      return true;
    });
    if (!inserted) {
      // Another request with the same id won the race.
      const again = await this.repeated(actor, command_id, controller.controller_id, input.kind, checked.payload);
      if (again) return again;
      throw new TRPCError({ code: 'CONFLICT', message: 'This command id is already used' });
    }

    await this.toast(actor.user_cuid, {
      command_id,
      controller_id: controller.controller_id,
      controller_name: controller.name,
      label: checked.label,
      status: 'PENDING',
      message: 'Waiting for the controller',
      timezone: controller.timezone,
    });
    if (await this.reachable(controller.controller_id)) await this.deliverPending(controller.controller_id);
    return (await this.commands.record(actor, command_id))!;
  }

  /** A stored command under this id: the same request answers it; another request is a CONFLICT. */
  private async repeated(
    actor: Actor,
    command_id: string,
    controller_id: string,
    kind: string,
    payload: Record<string, unknown>,
  ): Promise<TCommandRecord | undefined> {
    const stored = await this.commands.record(actor, command_id);
    if (!stored) return undefined;
    const same = stored.controller_id === controller_id && stored.kind === kind && stored.requested_by === actor.user_cuid && sameJson(stored.payload, payload);
    if (!same) throw new TRPCError({ code: 'CONFLICT', message: 'This command id is already used' });
    return stored;
  }

  /** An apply_config becomes the desired configuration (controller.config, entity.config) at once. */
  private async mergeDesired(actor: Actor, tx: CommandTx, controller_id: string, payload: Record<string, unknown>): Promise<void> {
    const p = payload as { controller?: Record<string, unknown>; devices?: Record<string, Record<string, unknown>> };
    if (p.controller) {
      const row = await this.commands.lockControllerConfig(actor, tx, controller_id);
      if (row) await this.commands.writeControllerConfig(actor, tx, controller_id, applyMergePatch(row.config ?? {}, p.controller));
    }
    for (const [entity_cuid, patch] of Object.entries(p.devices ?? {})) {
      const row = await this.commands.lockDeviceConfig(actor, tx, controller_id, entity_cuid);
      if (row) await this.commands.writeDeviceConfig(actor, tx, entity_cuid, applyMergePatch(row.config ?? {}, patch));
    }
  }

  // ---- Delivery ----------------------------------------------------------------------------

  /** Whether a controller can be handed commands now (a subscription on the in-process broker, or online with an external one). */
  async reachable(controller_id: string): Promise<boolean> {
    if (!this.link) return false;
    const subscribed = this.link.isSubscribed(controller_id);
    if (subscribed !== undefined) return subscribed;
    return this.queue.online(WORKER, controller_id);
  }

  /** Hands this controller's PENDING commands (oldest first) to the broker. Returns how many it took. */
  async deliverPending(controller_id: string): Promise<number> {
    return this.deliver(await this.claim([controller_id], false));
  }

  /** A controller came back: its PENDING commands, and its unanswered SENT ones again. */
  private async redeliver(controller_id: string): Promise<void> {
    if (!(await this.reachable(controller_id))) return;
    await this.deliver(await this.claim([controller_id], true));
  }

  /** Claims (SKIP LOCKED) the valid PENDING commands of these controllers — and their SENT ones with `again` — as SENT. */
  private async claim(controllers: string[], again: boolean): Promise<(TCommandMessage & { controller_id: string })[]> {
    const rows = await this.queue.claim(WORKER, controllers, again, WORKER_BATCH);
    return byRequestedAt(rows).map((r) => ({ ...toMessage(r), controller_id: r.controller_id }));
  }

  /** Publishes claimed commands, in order per controller; those the broker refused go back to PENDING. */
  private async deliver(claimed: (TCommandMessage & { controller_id: string })[]): Promise<number> {
    if (!claimed.length || !this.link) return 0;
    const link = this.link;
    const refused: string[] = [];
    const byController = new Map<string, (TCommandMessage & { controller_id: string })[]>();
    for (const m of claimed) byController.set(m.controller_id, [...(byController.get(m.controller_id) ?? []), m]);
    await Promise.all(
      [...byController.values()].map(async (list) => {
        for (const { controller_id, ...message } of list) {
          let ok = false;
          try {
            ok = await link.publishCommand(controller_id, message);
          } catch (e) {
            this.logger.warn(`command ${message.id} not handed to the broker: ${(e as Error).message}`);
          }
          if (!ok) refused.push(message.id);
        }
      }),
    );
    await this.queue.release(WORKER, refused);
    return claimed.length - refused.length;
  }

  // ---- Controller side (CommandInbox) ------------------------------------------------------

  async takePending(controller_id: string, limit: number): Promise<TCommandMessage[]> {
    const n = Math.max(1, Math.min(Math.floor(limit) || 1, WORKER_BATCH));
    return byRequestedAt(await this.queue.takeOwn({ controller_id }, n)).map(toMessage);
  }

  async ack(controller_id: string, body: unknown, _transport: 'mqtt' | 'http'): Promise<AckOutcome> {
    const parsed = ZCommandAck.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new CommandAckError(
        400,
        'BAD_REQUEST',
        `The acknowledgement is not valid${issue ? `: ${issue.path.map(String).join('.') || 'body'}: ${issue.message}` : ''}`,
      );
    }
    const ack = parsed.data;
    return new Promise<AckOutcome>((resolve, reject) => this.acks.push({ controller_id, ack, resolve, reject }));
  }

  /**
   * One batch of answers in one transaction: the commands locked (in id order), the answers judged
   * (ack-rules.ts) and recorded with the reported configurations and the changelog entries.
   */
  private async writeAcks(batch: QueuedAck[]): Promise<{ outcomes: (AckOutcome | CommandAckError)[]; finished: CommandRow[] }> {
    return this.ackRows.transaction(async (tx) => {
      const locked = await this.ackRows.lockCommands(
        ACKS,
        tx,
        batch.map((b) => ({ id: b.ack.id, controller_id: b.controller_id })),
      );
      const decision = judgeAcks(batch, locked);
      await this.ackRows.recordAnswers(ACKS, tx, decision.updates);
      await this.ackRows.writeReportedControllers(ACKS, tx, decision.reportedControllers);
      await this.ackRows.writeReportedDevices(ACKS, tx, decision.reportedDevices);
      await this.changelog(tx, decision.finished);
      return { outcomes: decision.outcomes, finished: decision.finished };
    });
  }

  // ---- Worker round ------------------------------------------------------------------------

  /** One worker round: EXPIRED, TIMEOUT, then delivery to reachable controllers. */
  async tick(): Promise<void> {
    const finals = await this.queue.transaction(async (tx) => {
      const expired = await this.queue.expireDue(WORKER, tx, WORKER_BATCH);
      const seconds = this.config.COMMAND_ACK_TIMEOUT_SECONDS;
      const timedOut = await this.queue.timeOutSent(WORKER, tx, seconds, `No answer from the controller within ${seconds} s`, WORKER_BATCH);
      const rows = [...expired, ...timedOut];
      await this.changelog(tx, rows);
      return rows;
    });
    await this.finalToasts(finals);

    if (this.link) {
      const waiting = await this.queue.waitingControllers(WORKER, WORKER_BATCH);
      const reachable: string[] = [];
      for (const controller_id of waiting) if (await this.reachable(controller_id)) reachable.push(controller_id);
      if (reachable.length) await this.deliver(await this.claim(reachable, false));
    }
  }

  // ---- Audit and toasts --------------------------------------------------------------------

  /** COMMAND changelog entries of commands that reached a final status, in the transaction that ended them. */
  private async changelog(tx: CommandTx, rows: (CommandRow & { late?: boolean })[]): Promise<void> {
    if (!rows.length) return;
    const info = await this.controllerInfo(
      rows.map((r) => r.controller_id),
      tx,
    );
    await this.queue.writeChangelog(WORKER, tx, commandChangelog(rows, info));
  }

  private async controllerInfo(ids: string[], tx?: CommandTx): Promise<Map<string, ControllerInfo>> {
    const now = Date.now();
    const out = new Map<string, ControllerInfo>();
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const hit = this.infoCache.get(id);
      if (hit && hit.until > now) out.set(id, hit.info);
      else missing.push(id);
    }
    if (!missing.length) return out;
    const rows = await this.queue.controllerInfo(WORKER, missing, tx);
    if (this.infoCache.size > 10_000) this.infoCache.clear();
    for (const r of rows) {
      out.set(r.controller_id, r);
      this.infoCache.set(r.controller_id, { info: r, until: now + INFO_CACHE_MS });
    }
    return out;
  }

  /** SUCCESS / FAILURE toasts (TIMEOUT and EXPIRED show as FAILURE) to the requesters, after the commit. */
  private async finalToasts(rows: CommandRow[]): Promise<void> {
    const withRequester = rows.filter((r) => r.requested_by);
    if (!withRequester.length) return;
    const info = await this.controllerInfo(withRequester.map((r) => r.controller_id));
    for (const r of withRequester) await this.toast(r.requested_by!, finalNotice(r, info.get(r.controller_id)));
  }

  private async toast(user_cuid: string, notice: CommandNotice): Promise<void> {
    try {
      await this.live.publish([user_cuid], { kind: 'toast', toast: commandToast(notice) });
    } catch (e) {
      this.logger.warn(`command toast ${notice.command_id} not published: ${(e as Error).message}`);
    }
  }
}
