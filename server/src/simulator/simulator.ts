import { appendFileSync } from 'node:fs';
import type { SimConfig } from './commands';
import { DEFAULT_PLANT, PlantModel, prng } from './plant-model';

/** One simulated controller: its id, its company's API token, its devices and what they log. */
export interface SimController {
  controller_id: string;
  token: string;
  system_cuid: string | null;
  entities: { entity_cuid: string; parameters: string[] }[];
  /** What it runs at start (its reported configuration, else the desired one), for commands. */
  config?: SimConfig;
}

export interface SimRow {
  timestamp: number;
  entity_cuid: string;
  parameter_id: string;
  value: number;
}

export interface TelemetryMessage {
  batch_id: string;
  rows: SimRow[];
  standard?: { timestamp: number; total_pv_kwh: number }[];
}

/** What the portal (or its broker) answered: the batch was acknowledged; `answer` when the transport carries it (HTTP). */
export interface SendResult {
  answer?: { accepted: number; duplicates: number; rejected: { index: number; reason: string; list?: string }[] };
}

/** How messages reach the portal: MQTT (QoS 1), HTTP, or in process. */
export interface SimTransport {
  /** Resolves once the message is acknowledged (PUBACK / HTTP 200); rejects when it was not. */
  telemetry(controller: SimController, message: TelemetryMessage): Promise<SendResult>;
  heartbeat(controller: SimController): Promise<void>;
  /** The run starts with these controllers (a transport that takes commands connects / starts polling). */
  attach?(controllers: SimController[]): void;
  /** A link outage starts (`up` false: the connection really closes) or ends (reopened; queued commands arrive). */
  link?(controller: SimController, up: boolean): void;
  close(): Promise<void>;
}

export interface SimulatorOptions {
  /** Simulated time between samples. */
  intervalSeconds: number;
  /** Step of the history before now (backfill); default intervalSeconds. */
  historyIntervalSeconds?: number;
  /**
   * Wall-clock pacing: 1 = real time (live), 0 = as fast as acknowledgements allow (replay).
   */
  speed: number;
  /** Simulated start; default now − backfillHours. */
  from?: number;
  /** Simulated end; default: run until stop(). */
  until?: number;
  /** History generated first and sent as backfill (a controller coming back with its buffer). */
  backfillHours?: number;
  /** Rows per message at most (a backlog is sent in such chunks). */
  rowsPerMessage?: number;
  /** Messages in flight per controller (MQTT QoS 1 window). */
  inFlight?: number;
  /** Fraction of samples lost at the sensor (never sent). */
  dropoutRate?: number;
  /** Chance per simulated hour that a controller loses its link, and for how long (minutes). */
  offlinePerHour?: number;
  offlineMinutes?: [number, number];
  /**
   * A scripted link outage of the first controller, `afterMinutes` after live sampling starts, for
   * `minutes` (the demo's "controller offline" alarm shows within minutes of `npm start`).
   */
  firstOutage?: { afterMinutes: number; minutes: number };
  /** Heartbeat every this many simulated seconds (live mode only). */
  heartbeatSeconds?: number;
  seed?: number;
  /** Append acknowledged rows here (JSON lines): the ledger the kill -9 test checks. */
  ledgerFile?: string;
  onError?(controller_id: string, error: Error): void;
}

/** Rows the portal acknowledged, per key, as the simulator saw them. */
export class Ledger {
  readonly rows = new Map<string, number>();
  acknowledgedMessages = 0;

  constructor(private readonly file?: string) {}

  static key(r: { entity_cuid: string; parameter_id: string; timestamp: number }): string {
    return `${r.entity_cuid}|${r.parameter_id}|${r.timestamp}`;
  }

  record(controller_id: string, message: TelemetryMessage): void {
    this.acknowledgedMessages++;
    for (const r of message.rows) this.rows.set(Ledger.key(r), r.value);
    if (this.file) {
      appendFileSync(
        this.file,
        `${JSON.stringify({ controller_id, batch_id: message.batch_id, rows: message.rows.map((r) => [r.entity_cuid, r.parameter_id, r.timestamp, r.value]) })}\n`,
      );
    }
  }
}

interface ControllerRun {
  controller: SimController;
  plant: PlantModel;
  buffer: SimRow[];
  standard: { timestamp: number; total_pv_kwh: number }[];
  inFlight: number;
  /** Simulated time until which the link is down (samples are buffered). */
  offlineUntil: number;
  lastSample: number;
  lastStandard: number;
  /** Wall-clock time before which a failed send is not retried. */
  retryAt: number;
  backoff: number;
  seq: number;
  lastHeartbeat: number;
  /** The transport was told the link is down (live outages only). */
  linkDown: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Drives controllers with realistic data (PlantModel), with sensor dropouts, link outages during
 * which samples are buffered and then sent as backfill, and heartbeats. Acknowledged rows go into
 * the ledger. Sending never blocks sampling: a controller keeps `inFlight` messages outstanding
 * and buffers the rest, as a real gateway does.
 */
export class Simulator {
  readonly ledger: Ledger;
  private readonly runs: ControllerRun[];
  private stopped = false;
  private done?: Promise<void>;
  private readonly random: () => number;
  readonly stats = { generated: 0, sent: 0, acknowledged: 0, failures: 0 };
  private readonly o: Required<Omit<SimulatorOptions, 'from' | 'until' | 'ledgerFile' | 'onError' | 'historyIntervalSeconds' | 'firstOutage'>> &
    SimulatorOptions;
  /** Simulated time live sampling started, and whether the scripted outage has happened. */
  private liveSince?: number;
  private scriptedOutageDone = false;

  constructor(
    controllers: SimController[],
    private readonly transport: SimTransport,
    options: SimulatorOptions,
  ) {
    this.o = {
      backfillHours: 0,
      rowsPerMessage: 500,
      inFlight: 4,
      dropoutRate: 0.01,
      offlinePerHour: 0.05,
      offlineMinutes: [3, 20],
      heartbeatSeconds: 30,
      seed: 1,
      ...options,
    };
    this.ledger = new Ledger(options.ledgerFile);
    this.random = prng(this.o.seed * 7919);
    this.runs = controllers.map((controller, i) => ({
      controller,
      plant: new PlantModel({ ...DEFAULT_PLANT, seed: this.o.seed * 1000 + i, initialSoc: 40 + ((i * 17) % 50) }),
      buffer: [],
      standard: [],
      inFlight: 0,
      offlineUntil: 0,
      lastSample: 0,
      lastStandard: -1,
      retryAt: 0,
      backoff: 500,
      seq: 0,
      lastHeartbeat: 0,
      linkDown: false,
    }));
  }

  /** Starts the run; resolves when `until` is reached (or stop() was called) and everything sent was answered. */
  start(): Promise<void> {
    if (!this.done) this.transport.attach?.(this.runs.map((r) => r.controller));
    this.done ??= this.loop();
    return this.done;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done?.catch(() => undefined);
  }

  private async loop(): Promise<void> {
    const step = this.o.intervalSeconds * 1000;
    const historyStep = (this.o.historyIntervalSeconds ?? this.o.intervalSeconds) * 1000;
    const now = Date.now();
    let t = this.o.from ?? now - this.o.backfillHours * 3_600_000;
    t -= t % Math.max(step, historyStep);
    // Live pacing starts once simulated time reaches the present (never with speed 0).
    let liveSim: number | undefined;
    let liveWall = 0;
    let sinceYield = 0;
    while (!this.stopped && (this.o.until === undefined || t <= this.o.until)) {
      const live = this.o.speed > 0 && t >= now;
      if (live) {
        if (liveSim === undefined) {
          liveSim = t;
          liveWall = Date.now();
        }
        const due = liveWall + (t - liveSim) / this.o.speed;
        while (!this.stopped && Date.now() < due) await sleep(Math.min(due - Date.now(), 500));
        if (this.stopped) break;
      }
      for (const run of this.runs) this.sample(run, t, live);
      for (const run of this.runs) this.pump(run, live, false);
      t += live || t + historyStep > now ? step : historyStep;
      if (!live) {
        // Replay and backfill: let acknowledgements catch up instead of growing buffers without end.
        while (!this.stopped && this.runs.every((r) => r.inFlight >= this.o.inFlight && r.buffer.length >= this.o.rowsPerMessage * 4)) {
          await sleep(2);
        }
        if (++sinceYield >= 20) {
          sinceYield = 0;
          await sleep(0);
        }
      }
    }
    // Send what is still buffered, then wait for the answers.
    const deadline = Date.now() + (this.stopped ? 5_000 : 600_000);
    while (Date.now() < deadline && this.runs.some((r) => r.buffer.length || r.standard.length || r.inFlight)) {
      for (const run of this.runs) this.pump(run, false, true);
      await sleep(5);
    }
  }

  private sample(run: ControllerRun, t: number, live: boolean): void {
    run.lastSample = t;
    const values = run.plant.step(t);
    for (const entity of run.controller.entities) {
      const pvDevice = entity.parameters.includes('pv_power');
      for (const parameter_id of entity.parameters) {
        if (this.random() < this.o.dropoutRate) continue; // the sensor missed this one
        let value = parameter_id === 'energy_total' && pvDevice ? values.pv_energy_total : values[parameter_id];
        if (value === undefined) value = run.plant.fallback(parameter_id, t);
        run.buffer.push({ timestamp: t, entity_cuid: entity.entity_cuid, parameter_id, value });
        this.stats.generated++;
      }
    }
    // The system's PV counter every 5 minutes.
    if (run.controller.system_cuid && Math.floor(t / 300_000) !== run.lastStandard) {
      run.lastStandard = Math.floor(t / 300_000);
      run.standard.push({ timestamp: t, total_pv_kwh: values.pv_energy_total });
    }
    // Link outages: samples stay in the buffer meanwhile.
    if (live && this.liveSince === undefined) this.liveSince = t;
    const scripted = this.o.firstOutage;
    if (live && scripted && !this.scriptedOutageDone && run === this.runs[0] && t >= this.liveSince! + scripted.afterMinutes * 60_000) {
      this.scriptedOutageDone = true;
      run.offlineUntil = t + scripted.minutes * 60_000;
    }
    if (t >= run.offlineUntil && this.random() < (this.o.offlinePerHour * this.o.intervalSeconds) / 3600) {
      const [lo, hi] = this.o.offlineMinutes;
      run.offlineUntil = t + (lo + this.random() * (hi - lo)) * 60_000;
    }
    // Live outages really close the link (the transport drops its connection and opens it again after).
    if (live && t < run.offlineUntil !== run.linkDown) {
      run.linkDown = t < run.offlineUntil;
      this.transport.link?.(run.controller, !run.linkDown);
    }
    if (live && t >= run.offlineUntil && t - run.lastHeartbeat >= this.o.heartbeatSeconds * 1000) {
      run.lastHeartbeat = t;
      this.transport.heartbeat(run.controller).catch(() => undefined);
    }
  }

  /** Sends buffered rows (oldest first) while the window allows and the link is up. */
  private pump(run: ControllerRun, live: boolean, final: boolean): void {
    if (!final && run.lastSample < run.offlineUntil) return;
    if (Date.now() < run.retryAt) return;
    const min = live || final ? 1 : this.o.rowsPerMessage;
    while (run.inFlight < this.o.inFlight && (run.buffer.length >= min || (run.standard.length > 0 && (live || final)))) {
      const rows = run.buffer.splice(0, this.o.rowsPerMessage);
      const standard = run.standard.splice(0, run.standard.length);
      const message: TelemetryMessage = { batch_id: `${run.controller.controller_id}-${++run.seq}`, rows, ...(standard.length ? { standard } : {}) };
      run.inFlight++;
      this.stats.sent += rows.length;
      this.transport.telemetry(run.controller, message).then(
        (result) => {
          run.inFlight--;
          run.backoff = 500;
          const refused = new Set((result.answer?.rejected ?? []).filter((r) => !('list' in r) || !r.list).map((r) => r.index));
          const kept = refused.size ? { ...message, rows: message.rows.filter((_, i) => !refused.has(i)) } : message;
          this.ledger.record(run.controller.controller_id, kept);
          this.stats.acknowledged += kept.rows.length;
        },
        (error: Error) => {
          // Not acknowledged: back into the buffer, sent again later (the portal drops repeats).
          run.inFlight--;
          this.stats.failures++;
          run.buffer.unshift(...rows);
          run.standard.unshift(...standard);
          run.retryAt = Date.now() + run.backoff;
          run.backoff = Math.min(run.backoff * 2, 10_000);
          this.o.onError?.(run.controller.controller_id, error);
        },
      );
    }
  }
}
