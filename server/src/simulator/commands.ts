import {
  applyMergePatch,
  type TCommandAck,
  type TCommandMessage,
  ZApplyConfigPayload,
  ZCommandMessage,
  ZSetParameterPayload,
} from '../../../shared/controllers/command-wire';

type Json = Record<string, unknown>;

/** What a simulated controller runs: its own configuration and its devices' (by entity_cuid). */
export interface SimConfig {
  controller: Json;
  devices: Record<string, Json>;
}

export interface CommandRunnerOptions {
  /** How long applying a configuration takes (0 = answer at once, for benches). */
  commandDelayMs: number;
  now?: () => number;
}

/** How many answers a controller remembers for de-duplication. */
const REMEMBERED = 1000;

/**
 * A simulated controller's command handling (docs/controller-protocol.md, *Commands*), the same
 * for every transport:
 *
 * - an id seen before is answered again with the same answer, never run twice;
 * - past `not_after`: FAILURE "expired", nothing runs;
 * - apply_config: after `commandDelayMs`, each target's merge patch is applied to what it runs,
 *   after checking the result (see checkConfig); SUCCESS with the full configurations of the
 *   targets it touched (`applied_config`), or FAILURE with the reason (nothing changes);
 * - set_parameter: a device of this controller → SUCCESS; restart: SUCCESS, then the transport
 *   drops the connection and opens it again; any other (declared) command → SUCCESS "<kind> done".
 */
export class SimCommandRunner {
  private readonly answered = new Map<string, Promise<TCommandAck>>();

  constructor(
    readonly config: SimConfig,
    private readonly o: CommandRunnerOptions,
  ) {}

  /**
   * Answers one command message as received (parsed JSON); undefined when it is not a command at
   * all (nothing to acknowledge). `restart`: this answer asks the transport to drop and reopen its
   * connection once the acknowledgement went out (only the first time an id is run).
   */
  handle(raw: unknown): { answer: Promise<TCommandAck>; restart: boolean } | undefined {
    const parsed = ZCommandMessage.safeParse(raw);
    if (!parsed.success) return undefined;
    const message = parsed.data;
    const before = this.answered.get(message.id);
    if (before) return { answer: before, restart: false };
    const answer = this.run(message);
    this.answered.set(message.id, answer);
    if (this.answered.size > REMEMBERED) this.answered.delete(this.answered.keys().next().value!);
    return { answer, restart: message.kind === 'restart' };
  }

  /** A runner for a simulated controller: its configuration as loaded (or empty ones per device). */
  static for(c: { entities: { entity_cuid: string }[]; config?: SimConfig }, o: CommandRunnerOptions): SimCommandRunner {
    const config: SimConfig = c.config
      ? { controller: { ...c.config.controller }, devices: { ...c.config.devices } }
      : { controller: {}, devices: Object.fromEntries(c.entities.map((e) => [e.entity_cuid, {}])) };
    return new SimCommandRunner(config, o);
  }

  private async run(m: TCommandMessage): Promise<TCommandAck> {
    const now = this.o.now?.() ?? Date.now();
    const notAfter = Date.parse(m.not_after);
    if (Number.isNaN(notAfter) || now > notAfter) return { id: m.id, status: 'FAILURE', message: 'expired' };
    switch (m.kind) {
      case 'apply_config': {
        const p = ZApplyConfigPayload.safeParse(m.payload);
        if (!p.success) return { id: m.id, status: 'FAILURE', message: `not a configuration: ${p.error.issues[0]?.message ?? 'invalid'}` };
        if (this.o.commandDelayMs > 0) await new Promise((r) => setTimeout(r, this.o.commandDelayMs));
        return this.applyConfig(m.id, p.data.controller, p.data.devices);
      }
      case 'set_parameter': {
        const p = ZSetParameterPayload.safeParse(m.payload);
        if (!p.success) return { id: m.id, status: 'FAILURE', message: `not a parameter setting: ${p.error.issues[0]?.message ?? 'invalid'}` };
        if (!this.config.devices[p.data.entity_cuid]) return { id: m.id, status: 'FAILURE', message: `unknown device ${p.data.entity_cuid}` };
        return { id: m.id, status: 'SUCCESS', message: `${p.data.parameter_id} set to ${String(p.data.value)}` };
      }
      case 'restart':
        return { id: m.id, status: 'SUCCESS', message: 'restarting' };
      default:
        return { id: m.id, status: 'SUCCESS', message: `${m.kind} done` };
    }
  }

  private applyConfig(id: string, controller: Json | undefined, devices: Record<string, Json> | undefined): TCommandAck {
    const next: SimConfig = { controller: this.config.controller, devices: { ...this.config.devices } };
    const applied: NonNullable<TCommandAck['applied_config']> = {};
    if (controller) {
      next.controller = applyMergePatch(this.config.controller, controller);
      const problem = checkConfig(next.controller);
      if (problem) return { id, status: 'FAILURE', message: `controller: ${problem}` };
      applied.controller = next.controller;
    }
    for (const [entity_cuid, patch] of Object.entries(devices ?? {})) {
      const current = this.config.devices[entity_cuid];
      if (!current) return { id, status: 'FAILURE', message: `unknown device ${entity_cuid}` };
      next.devices[entity_cuid] = applyMergePatch(current, patch);
      const problem = checkConfig(next.devices[entity_cuid]);
      if (problem) return { id, status: 'FAILURE', message: `device ${entity_cuid}: ${problem}` };
      (applied.devices ??= {})[entity_cuid] = next.devices[entity_cuid];
    }
    this.config.controller = next.controller;
    Object.assign(this.config.devices, next.devices);
    return { id, status: 'SUCCESS', message: 'configuration applied', applied_config: applied };
  }
}

/**
 * What a simulated controller refuses to run (the message says why):
 * - a key ending in `_soc` (battery_min_soc, …): a number from 0 to 100, and `*_min_soc` ≤ `*_max_soc`;
 * - a key containing `current` (max_charge_current, …) or ending in `_w` (export_limit_w, …): a number ≥ 0;
 * - `log_interval_s`: a whole number of seconds from 1 to 86400.
 * Anything else is taken as it is.
 */
export function checkConfig(config: Json): string | undefined {
  for (const [key, value] of Object.entries(config)) {
    if (key.endsWith('_soc')) {
      if (typeof value !== 'number' || value < 0 || value > 100) return `${key} must be a number from 0 to 100 (got ${JSON.stringify(value)})`;
    } else if (key.includes('current') || key.endsWith('_w')) {
      if (typeof value !== 'number' || value < 0) return `${key} must be a number ≥ 0 (got ${JSON.stringify(value)})`;
    } else if (key === 'log_interval_s') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 86_400) {
        return `log_interval_s must be a whole number of seconds from 1 to 86400 (got ${JSON.stringify(value)})`;
      }
    }
  }
  for (const key of Object.keys(config)) {
    const pair = /^(.*)min_soc$/.exec(key);
    const maxKey = pair ? `${pair[1]}max_soc` : undefined;
    if (maxKey && typeof config[maxKey] === 'number' && (config[key] as number) > config[maxKey]) return `${key} must not be above ${maxKey}`;
  }
  return undefined;
}
