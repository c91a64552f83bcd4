import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit, Optional } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import type { PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import { type Actor, can } from '../../access/policy';
import { LoginThrottle } from '../../auth/login-throttle';
import { verifyPassword } from '../../auth/password';
import type { TSessionPayload } from '../../auth/session.schema';
import { forbidden, notFound } from '../../common/errors';
import { commandActionResponse, type FINAL_COMMAND_STATUSES } from '../../common/enums';
import { newCuid } from '../../common/ids';
import { sameJson } from '../../common/json';
import { AppConfig } from '../../config/config';
import { applyMergePatch, type TCommandAck, type TCommandMessage, ZCommandAck } from '../../controllers/command-wire';
import { fieldError } from '../../common/field-error';
import { DATA_SOURCE } from '../../database/database.module';
import { withPgTransaction } from '../../database/pg-transaction';
import { SharedSignals, SIGNAL_TOPICS } from '../../database/shared-signals';
import { LiveEventsService } from '../../notifications/live-events.service';
import type { TToast } from '../../notifications/notifications.schema';
import { type AutomaticChangelogEntry, writeAutomaticChangelog } from '../../systems/automatic-changelog';
import { maskSecrets } from '../../common/secret-config';
import { COMMAND_LINK, CommandAckError, type CommandLink } from '../../telemetry/command-link';
import { ControllerOnlineStateService } from '../../telemetry/controller-online-state.service';
import { SqlParams } from '../../database/sql-params';
import { systemSharesSql, visibleCompanySql } from '../../tenancy/visibility';
import { stepUpRequired } from '../../trpc/errors';
import { writeAckBatch } from './ack-batch';
import { type AckOutcome, CommandInbox } from './command-inbox';
import { checkCommand, commandLabel, secretArgs, spendCommandBudget } from './command-checks';
import type { TCommandRecord, TSendCommandInput } from './commands.schema';

/** The columns of a command as the back office reads it (alias `t` = controller_command). */
export const COMMAND_RECORD_SELECT = `t.command_id AS id, t.command_id, t.controller_id,
  (SELECT c.name FROM controller c WHERE c.controller_id = t.controller_id) AS controller_name,
  t.company_cuid, t.system_cuid, t.kind, t.payload, t.dangerous, t.status::text AS status, t.requested_by,
  (SELECT u.name FROM "user" u WHERE u.user_cuid = t.requested_by) AS requester_name,
  t.requested_at, t.not_after, t.sent_at, t.attempts, t.finished_at, t.acked_at, t.message, t.applied_config`;

/** A stored command row with what toasts and the changelog need. */
interface CommandRow {
  command_id: string;
  controller_id: string;
  system_cuid: string | null;
  kind: string;
  payload: Record<string, unknown>;
  status: string;
  requested_by: string | null;
  requested_at: Date;
  not_after: Date;
  message: string | null;
}

const ROW_COLUMNS = `command_id, controller_id, system_cuid, kind, payload, status::text AS status, requested_by, requested_at, not_after, message`;

/** A controller as send() sees it. */
export interface CommandController {
  controller_id: string;
  name: string;
  company_cuid: string;
  system_cuid: string | null;
  config: Record<string, unknown>;
  reported_config: Record<string, unknown> | null;
  reported_at: Date | null;
  commands: unknown;
  shares: { company_cuid: string; change: boolean }[];
  timezone: string | null;
}

/** Final statuses a worker round set, for the changelog and the FAILURE toasts. */
type FinalStatus = (typeof FINAL_COMMAND_STATUSES)[number];

const WORKER_BATCH = 500;
/** Acknowledgements gathered this long (ms) into one write, at most ACK_BATCH of them. */
const ACK_GATHER_MS = 3;
const ACK_BATCH = 200;

interface QueuedAck {
  controller_id: string;
  ack: TCommandAck;
  resolve: (outcome: AckOutcome) => void;
  reject: (error: unknown) => void;
}
/** How long a controller's name and declared commands are reused for toasts and changelog titles. */
const INFO_CACHE_MS = 5000;
/** Tables the controller info is read from (a write to one, on any instance, drops the cache). */
const INFO_TABLES = new Set(['controller', 'controller_type', 'system']);

interface ControllerInfo {
  name: string;
  commands: unknown;
  timezone: string | null;
}
/** Sweep step-up rows every this many worker rounds. */
const SWEEP_EVERY = 60;

/**
 * Commands to controllers (docs/control.md, *Commands*): send (checks, step-up, idempotency,
 * store, PENDING toast, delivery when reachable), the controller's acknowledgements (CommandInbox),
 * and the worker that delivers stored commands to controllers that came back, and ends the ones
 * that got no answer (TIMEOUT) or could not be delivered in time (EXPIRED).
 *
 * Delivery: a command is claimed under a row lock (SKIP LOCKED, so several instances never hand
 * the same one over at once) and marked SENT in a short transaction, then handed to the broker;
 * if the broker refuses it goes back to PENDING. A controller de-duplicates by id, so a hand-over
 * repeated after a reconnect never runs it twice.
 */
@Injectable()
export class CommandService extends CommandInbox implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Commands');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private rounds = 0;
  private readonly ackQueue: QueuedAck[] = [];
  private ackTimer?: NodeJS.Timeout;
  /** An acknowledgement batch is being written. */
  private ackWriting = false;
  private readonly background = new Set<Promise<unknown>>();
  /** Names, declared commands and time zones of controllers, for toasts and changelog titles (a backlog acks many at once). */
  private readonly infoCache = new Map<string, { info: ControllerInfo; until: number }>();

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly live: LiveEventsService,
    private readonly throttle: LoginThrottle,
    @Optional() private readonly online?: ControllerOnlineStateService,
    @Optional() @Inject(COMMAND_LINK) private readonly link?: CommandLink,
    @Optional() signals?: SharedSignals,
  ) {
    super();
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
    if (this.config.COMMAND_POLL_MS > 0) {
      this.timer = setInterval(() => {
        if (this.running) return;
        this.running = this.tick()
          .catch((e) => this.logger.warn(`command round failed: ${(e as Error).message}`))
          .finally(() => (this.running = undefined));
      }, this.config.COMMAND_POLL_MS);
      this.timer.unref();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.flushAcks();
    await this.running;
    // A finished ack write starts the next batch: wait until none is left.
    while (this.background.size) await Promise.allSettled([...this.background]);
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
  async visibleController(actor: Actor, controller_id: string, q: { query: (sql: string, p?: unknown[]) => Promise<unknown> } = this.ds): Promise<CommandController> {
    const p = new SqlParams([controller_id]);
    const [row] = (await q.query(
      `SELECT c.controller_id, c.name, c.company_cuid, c.system_cuid, c.config, c.reported_config, c.reported_at, ct.commands,
              CASE WHEN s.system_cuid IS NULL THEN '[]'::json ELSE ${systemSharesSql('s')} END AS shares, s.timezone
         FROM controller c
         JOIN controller_type ct ON ct.controllertype_cuid = c.controllertype_cuid
         LEFT JOIN system s ON s.system_cuid = c.system_cuid
        WHERE c.controller_id = $1 AND ${visibleCompanySql(actor, p, 'c.company_cuid')}`,
      p.values,
    )) as CommandController[];
    if (!row) throw notFound('Controller');
    return row;
  }

  /** May the caller configure this controller (controllers.configure against its company and its system's shares)? */
  mayConfigure(actor: Actor, c: CommandController): boolean {
    return can(actor, 'controllers.configure', { company_cuid: c.company_cuid, shares: c.shares });
  }

  async record(command_id: string, q: { query: (sql: string, p?: unknown[]) => Promise<unknown> } = this.ds): Promise<TCommandRecord | undefined> {
    const [row] = (await q.query(`SELECT ${COMMAND_RECORD_SELECT} FROM controller_command t WHERE t.command_id = $1`, [command_id])) as TCommandRecord[];
    return row;
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
      const again = await this.repeated(input.id, controller.controller_id, input.kind, payload, actor.user_cuid);
      if (again) return again;
    }
    const checked = await checkCommand(this.ds, actor, controller, input.kind, payload);

    const now = Date.now();
    const not_after = input.not_after ?? new Date(now + this.config.COMMAND_DEFAULT_TTL_SECONDS * 1000);
    if (!(not_after.getTime() > now)) throw fieldError(['not_after'], 'Must be in the future');
    if (not_after.getTime() > now + this.config.COMMAND_MAX_TTL_SECONDS * 1000) {
      throw fieldError(['not_after'], `At most ${Math.round(this.config.COMMAND_MAX_TTL_SECONDS / 3600)} hours ahead`);
    }

    if (checked.dangerous) await this.stepUp(actor, session, input.password, address);

    const command_id = input.id ?? newCuid();
    const inserted = await withPgTransaction(this.ds, async (c) => {
      // An apply_config rewrites the controller's desired config: lock its row before the insert,
      // whose foreign key takes a share lock on it (two such sends at once would otherwise deadlock).
      if (input.kind === 'apply_config') await c.query(`SELECT 1 FROM controller WHERE controller_id = $1 FOR UPDATE`, [controller.controller_id]);
      const rows = await c.query(
        `INSERT INTO controller_command (command_id, controller_id, company_cuid, system_cuid, kind, payload, dangerous, status, requested_by, requested_at, not_after)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, 'PENDING', $8, now(), $9)
         ON CONFLICT (command_id) DO NOTHING RETURNING command_id`,
        [command_id, controller.controller_id, controller.company_cuid, controller.system_cuid, input.kind, JSON.stringify(checked.payload), checked.dangerous, actor.user_cuid, not_after],
      );
      if (!rows.rowCount) return false;
      await spendCommandBudget(this.ds, c, actor, controller);
      if (input.kind === 'apply_config') await this.mergeDesired(c, controller.controller_id, checked.payload);
      return true;
    });
    if (!inserted) {
      // Another request with the same id won the race.
      const again = await this.repeated(command_id, controller.controller_id, input.kind, checked.payload, actor.user_cuid);
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
    return (await this.record(command_id))!;
  }

  /** A stored command under this id: the same request answers it; another request is a CONFLICT. */
  private async repeated(command_id: string, controller_id: string, kind: string, payload: Record<string, unknown>, user_cuid: string): Promise<TCommandRecord | undefined> {
    const stored = await this.record(command_id);
    if (!stored) return undefined;
    const same =
      stored.controller_id === controller_id && stored.kind === kind && stored.requested_by === user_cuid && sameJson(stored.payload, payload);
    if (!same) throw new TRPCError({ code: 'CONFLICT', message: 'This command id is already used' });
    return stored;
  }

  /** An apply_config becomes the desired configuration (controller.config, entity.config) at once. */
  private async mergeDesired(c: PoolClient, controller_id: string, payload: Record<string, unknown>): Promise<void> {
    const p = payload as { controller?: Record<string, unknown>; devices?: Record<string, Record<string, unknown>> };
    if (p.controller) {
      const { rows } = await c.query(`SELECT config FROM controller WHERE controller_id = $1 FOR UPDATE`, [controller_id]);
      if (rows[0]) await c.query(`UPDATE controller SET config = $2::jsonb WHERE controller_id = $1`, [controller_id, JSON.stringify(applyMergePatch(rows[0].config ?? {}, p.controller))]);
    }
    for (const [entity_cuid, patch] of Object.entries(p.devices ?? {})) {
      const { rows } = await c.query(`SELECT config FROM entity WHERE entity_cuid = $1 AND controller_id = $2 FOR UPDATE`, [entity_cuid, controller_id]);
      if (rows[0]) await c.query(`UPDATE entity SET config = $2::jsonb WHERE entity_cuid = $1`, [entity_cuid, JSON.stringify(applyMergePatch(rows[0].config ?? {}, patch))]);
    }
  }

  /**
   * Step-up for dangerous commands: a password given by this session within
   * STEP_UP_MAX_AGE_SECONDS, else the one given now (braked like a login).
   */
  private async stepUp(actor: Actor, session: TSessionPayload, password: string | undefined, address: string): Promise<void> {
    const [recent] = (await this.ds.query(
      `SELECT 1 FROM session_step_up WHERE sid = $1 AND user_cuid = $2 AND verified_at > now() - make_interval(secs => $3)`,
      [session.sid, actor.user_cuid, this.config.STEP_UP_MAX_AGE_SECONDS],
    )) as unknown[];
    if (recent) return;
    if (!password) throw stepUpRequired('Enter your password again to send this command');
    const [user] = (await this.ds.query(`SELECT email, password FROM "user" WHERE user_cuid = $1`, [actor.user_cuid])) as { email: string; password: string | null }[];
    if (!user) throw fieldError(['password'], 'The password is not right');
    const verdict = await this.throttle.reserve(user.email, address);
    if (verdict.blocked) throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: `Too many wrong passwords. Try again in ${verdict.retryAfterSeconds} s.` });
    let right: boolean;
    try {
      right = await verifyPassword(user.password, password);
    } catch (e) {
      await this.throttle.release(verdict.ticket);
      throw e;
    }
    // A wrong password keeps its reserved attempt: it counts as a failure.
    if (!right) throw fieldError(['password'], 'The password is not right');
    await this.throttle.succeed(verdict.ticket);
    await this.ds.query(
      `INSERT INTO session_step_up (sid, user_cuid, verified_at) VALUES ($1, $2, now())
       ON CONFLICT (sid) DO UPDATE SET user_cuid = EXCLUDED.user_cuid, verified_at = EXCLUDED.verified_at`,
      [session.sid, actor.user_cuid],
    );
  }

  // ---- Delivery ----------------------------------------------------------------------------

  /** Whether a controller can be handed commands now (a subscription on the in-process broker, or online with an external one). */
  async reachable(controller_id: string): Promise<boolean> {
    if (!this.link) return false;
    const subscribed = this.link.isSubscribed(controller_id);
    if (subscribed !== undefined) return subscribed;
    const [row] = (await this.ds.query(`SELECT 1 FROM controller_online_state WHERE controller_id = $1 AND online_state IN ('ONLINE', 'UNSTABLE')`, [
      controller_id,
    ])) as unknown[];
    return !!row;
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

  /**
   * Claims (row locks, SKIP LOCKED) the PENDING commands of these controllers — and their SENT ones
   * with `again` — that are still valid, and marks them SENT, in one short transaction.
   */
  private async claim(controllers: string[], again: boolean): Promise<(TCommandMessage & { controller_id: string })[]> {
    if (!controllers.length) return [];
    return withPgTransaction(this.ds, async (c) => {
      const { rows } = await c.query(
        `WITH picked AS (
           SELECT command_id FROM controller_command
            WHERE controller_id = ANY($1::varchar[]) AND status IN ('PENDING', ${again ? `'SENT'` : `'PENDING'`}) AND not_after > now()
            ORDER BY requested_at, command_id
            LIMIT ${WORKER_BATCH}
            FOR UPDATE SKIP LOCKED)
         UPDATE controller_command t SET status = 'SENT', sent_at = now(), attempts = t.attempts + 1
           FROM picked WHERE t.command_id = picked.command_id
         RETURNING t.command_id, t.controller_id, t.kind, t.payload, t.not_after, t.requested_at`,
        [controllers],
      );
      return (rows as { command_id: string; controller_id: string; kind: string; payload: Record<string, unknown>; not_after: Date; requested_at: Date }[])
        .sort((a, b) => new Date(a.requested_at).getTime() - new Date(b.requested_at).getTime())
        .map((r) => ({ ...toMessage(r), controller_id: r.controller_id }));
    });
  }

  /** Publishes claimed commands; those the broker refused go back to PENDING. */
  private async deliver(claimed: (TCommandMessage & { controller_id: string })[]): Promise<number> {
    if (!claimed.length || !this.link) return 0;
    const link = this.link;
    const refused: string[] = [];
    const byController = new Map<string, (TCommandMessage & { controller_id: string })[]>();
    for (const m of claimed) byController.set(m.controller_id, [...(byController.get(m.controller_id) ?? []), m]);
    await Promise.all(
      [...byController.values()].map(async (list) => {
        // In order per controller.
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
    if (refused.length) {
      await this.ds.query(
        `UPDATE controller_command SET status = 'PENDING', attempts = greatest(attempts - 1, 0)
          WHERE command_id = ANY($1::varchar[]) AND status = 'SENT'`,
        [refused],
      );
    }
    return claimed.length - refused.length;
  }

  // ---- Controller side (CommandInbox) ------------------------------------------------------

  async takePending(controller_id: string, limit: number): Promise<TCommandMessage[]> {
    const n = Math.max(1, Math.min(Math.floor(limit) || 1, WORKER_BATCH));
    const rows = await withPgTransaction(this.ds, async (c) => {
      const { rows } = await c.query(
        `WITH picked AS (
           SELECT command_id FROM controller_command
            WHERE controller_id = $1 AND status IN ('PENDING', 'SENT') AND not_after > now()
            ORDER BY requested_at, command_id LIMIT $2 FOR UPDATE SKIP LOCKED)
         UPDATE controller_command t SET status = 'SENT', sent_at = now(), attempts = t.attempts + 1
           FROM picked WHERE t.command_id = picked.command_id
         RETURNING t.command_id, t.kind, t.payload, t.not_after, t.requested_at`,
        [controller_id, n],
      );
      return rows as { command_id: string; kind: string; payload: Record<string, unknown>; not_after: Date; requested_at: Date }[];
    });
    return rows.sort((a, b) => new Date(a.requested_at).getTime() - new Date(b.requested_at).getTime()).map(toMessage);
  }

  async ack(controller_id: string, body: unknown, _transport: 'mqtt' | 'http'): Promise<AckOutcome> {
    const parsed = ZCommandAck.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new CommandAckError(400, 'BAD_REQUEST', `The acknowledgement is not valid${issue ? `: ${issue.path.map(String).join('.') || 'body'}: ${issue.message}` : ''}`);
    }
    const ack = parsed.data;
    return new Promise<AckOutcome>((resolve, reject) => {
      this.ackQueue.push({ controller_id, ack, resolve, reject });
      if (this.ackWriting) return; // the write in progress takes the queue when it is done
      if (this.ackQueue.length >= ACK_BATCH) this.flushAcks();
      else this.ackTimer ??= setTimeout(() => this.flushAcks(), ACK_GATHER_MS);
    });
  }

  /**
   * Acknowledgements are written in batches (gathered for ACK_GATHER_MS, at most ACK_BATCH): one
   * transaction locks the commands (in id order), records the answers with one UPDATE … FROM
   * unnest, the reported configurations and the changelog entries, then the toasts go out. A
   * backlog of controllers coming back acks far faster than one transaction per answer.
   */
  private flushAcks(): void {
    if (this.ackTimer) clearTimeout(this.ackTimer);
    this.ackTimer = undefined;
    if (this.ackWriting) return;
    const batch = this.ackQueue.splice(0, ACK_BATCH);
    if (!batch.length) return;
    // One write at a time on this instance: what arrives meanwhile waits and goes in the next,
    // bigger batch (concurrent batches only queued on each other's row locks).
    this.ackWriting = true;
    // A batch the database refuses for one answer is written again in halves: only that answer is refused (ack-batch.ts).
    const work = writeAckBatch(batch, (part) => this.writeAcks(part), (e) => this.logger.warn(`acknowledgement refused on its own: ${(e as Error).message}`)).then(
      async ({ outcomes, finished }) => {
        // The answers are stored: the controllers get their PUBACK / HTTP 200 now, and the toasts
        // follow (they are not what the controller waits for; an ack must not wait for hundreds of
        // live events of a backlog).
        batch.forEach((b, i) => (outcomes[i] instanceof Error ? b.reject(outcomes[i]) : b.resolve(outcomes[i] as AckOutcome)));
        await this.finalToasts(finished).catch((e) => this.logger.warn(`command toasts not published: ${(e as Error).message}`));
      },
      (error) => batch.forEach((b) => b.reject(error)),
    );
    this.later(
      work.finally(() => {
        this.ackWriting = false;
        if (this.ackQueue.length) this.flushAcks();
      }),
    );
  }

  private async writeAcks(batch: QueuedAck[]): Promise<{ outcomes: (AckOutcome | CommandAckError)[]; finished: CommandRow[] }> {
    return withPgTransaction(this.ds, async (c) => {
      const { rows } = await c.query(
        `SELECT ${ROW_COLUMNS} FROM controller_command t
           JOIN unnest($1::varchar[], $2::varchar[]) AS k(id, ctrl) ON t.command_id = k.id AND t.controller_id = k.ctrl
          ORDER BY t.command_id FOR UPDATE OF t`,
        [batch.map((b) => b.ack.id), batch.map((b) => b.controller_id)],
      );
      const byKey = new Map((rows as CommandRow[]).map((r) => [`${r.command_id}\u0000${r.controller_id}`, r]));
      const outcomes: (AckOutcome | CommandAckError)[] = [];
      const finished: (CommandRow & { late: boolean })[] = [];
      const updates: { id: string; status: string; message: string | null; applied: string | null }[] = [];
      const reportedControllers = new Map<string, string>();
      const reportedDevices = new Map<string, { controller_id: string; cfg: string }>();
      for (const { controller_id, ack } of batch) {
        const row = byKey.get(`${ack.id}\u0000${controller_id}`);
        if (!row) {
          outcomes.push(new CommandAckError(404, 'NOT_FOUND', `No command '${ack.id}' for this controller`));
          continue;
        }
        if (row.status === 'SUCCESS' || row.status === 'FAILURE') {
          outcomes.push({ id: ack.id, recorded: false, status: row.status });
          continue;
        }
        const late = row.status === 'TIMEOUT' || row.status === 'EXPIRED';
        const message = ack.message ?? null;
        // Later answers to the same id in this batch see it answered.
        row.status = ack.status;
        row.message = message;
        updates.push({ id: ack.id, status: ack.status, message, applied: ack.applied_config ? JSON.stringify(ack.applied_config) : null });
        if (ack.applied_config?.controller) reportedControllers.set(controller_id, JSON.stringify(ack.applied_config.controller));
        for (const [key, cfg] of Object.entries(ack.applied_config?.devices ?? {})) reportedDevices.set(key, { controller_id, cfg: JSON.stringify(cfg) });
        finished.push({ ...row, late });
        outcomes.push({ id: ack.id, recorded: true, status: ack.status, late });
      }
      if (updates.length) {
        await c.query(
          `UPDATE controller_command t SET status = u.status::controller_command_status, acked_at = now(), finished_at = now(), message = u.message, applied_config = u.applied::jsonb
             FROM unnest($1::varchar[], $2::text[], $3::text[], $4::text[]) AS u(id, status, message, applied)
            WHERE t.command_id = u.id`,
          [updates.map((u) => u.id), updates.map((u) => u.status), updates.map((u) => u.message), updates.map((u) => u.applied)],
        );
      }
      // Controllers and devices are locked in key order first, so two instances' batches that
      // report the same controllers queue on each other instead of deadlocking.
      if (reportedControllers.size) {
        await c.query(`SELECT 1 FROM controller WHERE controller_id = ANY($1::varchar[]) ORDER BY controller_id FOR UPDATE`, [[...reportedControllers.keys()]]);
        await c.query(
          `UPDATE controller c SET reported_config = d.cfg::jsonb, reported_at = now()
             FROM unnest($1::varchar[], $2::text[]) AS d(id, cfg) WHERE c.controller_id = d.id`,
          [[...reportedControllers.keys()], [...reportedControllers.values()]],
        );
      }
      if (reportedDevices.size) {
        const list = [...reportedDevices];
        await c.query(`SELECT 1 FROM entity WHERE entity_cuid = ANY($1::varchar[]) ORDER BY entity_cuid FOR UPDATE`, [list.map(([k]) => k)]);
        // Only devices of the acknowledging controller.
        await c.query(
          `UPDATE entity e SET reported_config = d.cfg::jsonb, reported_at = now()
             FROM unnest($1::varchar[], $2::varchar[], $3::text[]) AS d(key, ctrl, cfg)
            WHERE e.entity_cuid = d.key AND e.controller_id = d.ctrl`,
          [list.map(([k]) => k), list.map(([, v]) => v.controller_id), list.map(([, v]) => v.cfg)],
        );
      }
      await this.changelog(c, finished);
      return { outcomes, finished };
    });
  }

  // ---- Worker ------------------------------------------------------------------------------

  /** One worker round: EXPIRED, TIMEOUT, then delivery to reachable controllers. */
  async tick(): Promise<void> {
    const finals = await withPgTransaction(this.ds, async (c) => {
      const expired = await c.query(
        `UPDATE controller_command t SET status = 'EXPIRED', finished_at = now(), message = 'Not delivered before its expiry'
          WHERE t.command_id IN (SELECT command_id FROM controller_command WHERE status = 'PENDING' AND not_after <= now()
                                  LIMIT ${WORKER_BATCH} FOR UPDATE SKIP LOCKED)
          RETURNING ${ROW_COLUMNS.replace('status::text AS status', "'EXPIRED' AS status")}`,
      );
      const timedOut = await c.query(
        `UPDATE controller_command t SET status = 'TIMEOUT', finished_at = now(), message = $1
          WHERE t.command_id IN (SELECT command_id FROM controller_command
                                  WHERE status = 'SENT' AND sent_at <= now() - make_interval(secs => $2)
                                  LIMIT ${WORKER_BATCH} FOR UPDATE SKIP LOCKED)
          RETURNING ${ROW_COLUMNS.replace('status::text AS status', "'TIMEOUT' AS status")}`,
        [`No answer from the controller within ${this.config.COMMAND_ACK_TIMEOUT_SECONDS} s`, this.config.COMMAND_ACK_TIMEOUT_SECONDS],
      );
      const rows = [...(expired.rows as CommandRow[]), ...(timedOut.rows as CommandRow[])];
      await this.changelog(c, rows);
      return rows;
    });
    await this.finalToasts(finals);

    if (this.link) {
      const waiting = (await this.ds.query(
        `SELECT DISTINCT controller_id FROM controller_command WHERE status = 'PENDING' AND not_after > now() LIMIT ${WORKER_BATCH}`,
      )) as { controller_id: string }[];
      const reachable: string[] = [];
      for (const { controller_id } of waiting) if (await this.reachable(controller_id)) reachable.push(controller_id);
      if (reachable.length) await this.deliver(await this.claim(reachable, false));
    }

    if (++this.rounds % SWEEP_EVERY === 1) {
      await this.ds.query(`DELETE FROM session_step_up WHERE verified_at < now() - make_interval(secs => $1)`, [this.config.STEP_UP_MAX_AGE_SECONDS]);
    }
  }

  // ---- Audit and toasts --------------------------------------------------------------------

  /** COMMAND changelog entries of commands that reached a final status (`late`: an answer after TIMEOUT / EXPIRED). */
  private async changelog(c: PoolClient, rows: (CommandRow & { late?: boolean })[]): Promise<void> {
    const entries: AutomaticChangelogEntry[] = [];
    if (!rows.length) return;
    const names = await this.controllerInfo(c, rows.map((r) => r.controller_id));
    for (const r of rows) {
      if (!r.system_cuid) continue;
      const info = names.get(r.controller_id);
      const label = commandLabel(r.kind, info?.commands);
      entries.push({
        system_cuid: r.system_cuid,
        kind: 'COMMAND',
        title: `${label} on ${info?.name ?? r.controller_id}: ${r.status}${r.late ? ' (late answer)' : ''}`,
        message: [r.message, `Payload: ${JSON.stringify(maskSecrets(r.payload, secretArgs(r.kind, info?.commands))).slice(0, 2000)}`].filter(Boolean).join('\n'),
        user_cuid: r.requested_by,
        ref: r.command_id,
      });
    }
    await writeAutomaticChangelog(c, entries);
  }

  private async controllerInfo(
    q: { query: (sql: string, p?: unknown[]) => Promise<unknown> },
    ids: string[],
  ): Promise<Map<string, ControllerInfo>> {
    const now = Date.now();
    const wanted = [...new Set(ids)];
    const out = new Map<string, ControllerInfo>();
    const missing: string[] = [];
    for (const id of wanted) {
      const hit = this.infoCache.get(id);
      if (hit && hit.until > now) out.set(id, hit.info);
      else missing.push(id);
    }
    if (!missing.length) return out;
    const res = (await q.query(
      `SELECT c.controller_id, c.name, ct.commands, s.timezone
         FROM controller c JOIN controller_type ct ON ct.controllertype_cuid = c.controllertype_cuid
         LEFT JOIN system s ON s.system_cuid = c.system_cuid
        WHERE c.controller_id = ANY($1::varchar[])`,
      [missing],
    )) as { rows?: unknown[] } | unknown[];
    const rows = (Array.isArray(res) ? res : (res.rows ?? [])) as (ControllerInfo & { controller_id: string })[];
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
    const info = await this.controllerInfo(this.ds, withRequester.map((r) => r.controller_id));
    for (const r of withRequester) {
      const i = info.get(r.controller_id);
      await this.toast(r.requested_by!, {
        command_id: r.command_id,
        controller_id: r.controller_id,
        controller_name: i?.name ?? r.controller_id,
        label: commandLabel(r.kind, i?.commands),
        status: r.status as FinalStatus,
        message: r.message ?? (r.status === 'SUCCESS' ? 'Done' : 'Failed'),
        timezone: i?.timezone ?? null,
      });
    }
  }

  private async toast(
    user_cuid: string,
    t: { command_id: string; controller_id: string; controller_name: string; label: string; status: 'PENDING' | FinalStatus; message: string; timezone: string | null },
  ): Promise<void> {
    const actionResponse = commandActionResponse(t.status);
    const toast: TToast = {
      id: t.command_id,
      type: 'ACTION_RESPONSE',
      title: `${t.label}: ${t.controller_name}`,
      message: t.message,
      severity: actionResponse === 'FAILURE' ? 'ERROR' : 'INFO',
      triggeredAt: { timestamp: new Date(), timezone: t.timezone ?? 'UTC' },
      onClickTarget: `/controller/${encodeURIComponent(t.controller_id)}/show/commands`,
      actionResponse,
      command: { command_id: t.command_id, controller_id: t.controller_id, status: t.status },
    };
    try {
      await this.live.publish([user_cuid], { kind: 'toast', toast });
    } catch (e) {
      this.logger.warn(`command toast ${t.command_id} not published: ${(e as Error).message}`);
    }
  }
}

function toMessage(r: { command_id: string; kind: string; payload: Record<string, unknown>; not_after: Date; requested_at: Date }): TCommandMessage {
  return {
    id: r.command_id,
    kind: r.kind,
    payload: r.payload ?? {},
    not_after: new Date(r.not_after).toISOString(),
    requested_at: new Date(r.requested_at).toISOString(),
  };
}
