import { Client } from 'pg';
import { openDatabase } from '../../server/src/database/data-source';
import { DEMO_CONTROLLER_ID } from '../../server/src/seed/demo-seed';
import { generateControllers, loadFleet } from '../../server/src/simulator/fleet';
import type { SimController } from '../../server/src/simulator/simulator';
import { MqttTransport } from '../../server/src/simulator/transports';
import { HttpClient } from '../../test/factories/http-client';
import { startMosquitto } from '../../test/factories/mosquitto';
import { spawnTelemetryServer, type SpawnedServer } from '../../test/factories/spawn-server';
import { openStream } from '../../test/factories/sse';
import { type BenchContext, type FigureResult, scratchDatabase } from '../lib';

/**
 * The command figures, on PostgreSQL and a Mosquitto of the bench's own, with the built server in
 * its own process (MQTT_URL), and simulated controllers (server/src/simulator, MqttTransport with
 * commands: persistent session, QoS 1) that answer at once (commandDelayMs 0).
 *
 * - `command_rtt`: an installer sends apply_config commands one after the other over tRPC
 *   (controllerCommand.send), round-robin over 10 connected controllers; each is timed from the
 *   call to the SUCCESS ACTION_RESPONSE toast on the installer's live stream (tRPC SSE, as the
 *   browser reads it), over ≥ 500 commands (BENCH_COMMANDS). Goal p95 ≤ 250 ms.
 * - `command_backlog`: 1,000 commands are stored for 100 controllers that are offline (never
 *   connected: PENDING), then all 100 connect at once; acknowledged commands/s from the connects to
 *   the last SUCCESS recorded. Goal ≥ 500/s.
 */

interface Setup {
  db: { url: string; drop(): Promise<void> };
  broker: Awaited<ReturnType<typeof startMosquitto>>;
  server: SpawnedServer;
  fleet: SimController[];
  pg: Client;
  installer: HttpClient;
  transport?: MqttTransport;
}

async function setUp(label: string, controllers: number): Promise<Setup> {
  const db = await scratchDatabase(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', label);
  const broker = await startMosquitto();
  const server = await spawnTelemetryServer({
    DATABASE_URL: db.url,
    SEED_DEMO: 'true',
    MQTT_URL: broker.url,
    MQTT_CLIENT_ID: `portal-bench-${label}`,
    DATABASE_POOL_SIZE: '10',
    // The bench times commands, far more a minute than a person sends: no budget in the way.
    COMMANDS_PER_CONTROLLER_PER_MINUTE: '1000000',
  });
  const admin = await openDatabase({ url: db.url, poolSize: 2 }, false);
  let fleet: SimController[];
  try {
    await generateControllers(admin.dataSource, controllers);
    // The generated controllers join the demo company, so its installer may command them.
    const [{ company_cuid }] = await admin.dataSource.query<{ company_cuid: string }[]>(`SELECT company_cuid FROM controller WHERE controller_id = $1`, [
      DEMO_CONTROLLER_ID,
    ]);
    await admin.dataSource.query(
      `UPDATE system SET company_cuid = $1 WHERE system_cuid IN (SELECT system_cuid FROM controller WHERE controller_id ~ '^sim-ctrl-')`,
      [company_cuid],
    );
    await admin.dataSource.query(`UPDATE controller SET company_cuid = $1 WHERE controller_id ~ '^sim-ctrl-'`, [company_cuid]);
    fleet = await loadFleet(admin.dataSource, { pattern: '^sim-ctrl-' });
  } finally {
    await admin.close();
  }
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  const installer = new HttpClient(server.baseUrl);
  const login = await installer.request('POST', '/api/auth/login', {
    body: JSON.stringify({ email: 'installer@demo.local', password: 'demo-password' }),
    headers: { 'content-type': 'application/json' },
  });
  if (login.status >= 300) throw new Error(`${label}: login failed (${login.status})`);
  return { db, broker, server, fleet, pg, installer };
}

async function tearDown(s: Partial<Setup>): Promise<void> {
  await s.transport?.close();
  await s.pg?.end().catch(() => undefined);
  await s.server?.stop();
  await s.broker?.stop();
  await s.db?.drop();
}

/** apply_config of the controller's log interval (the ack carries the applied configuration), or the declared set_export_limit. */
const send = async (installer: HttpClient, controller_id: string, n: number, kind: 'apply_config' | 'set_export_limit' = 'apply_config'): Promise<string> => {
  const res = await installer.mutate<{ command_id: string }>('controllerCommand.send', {
    controller_id,
    kind,
    payload: kind === 'apply_config' ? { controller: { log_interval_s: 30 + (n % 600) } } : { limit_w: 1000 * (n % 100) },
  });
  if (res.error || !res.data) throw new Error(`controllerCommand.send failed: ${JSON.stringify(res.error ?? res)}`);
  return res.data.command_id;
};

export async function commandRttFigure(ctx: BenchContext): Promise<FigureResult> {
  const total = Math.max(500, Number(process.env.BENCH_COMMANDS ?? 500));
  const s: Partial<Setup> = {};
  try {
    Object.assign(s, await setUp('command_rtt', 10));
    const { fleet, broker, installer } = s as Setup;
    const transport = new MqttTransport(broker.url, 'portal/v1', { delayMs: 0 });
    s.transport = transport;
    await transport.connectAll(fleet);
    await new Promise((r) => setTimeout(r, 2000)); // heartbeats seen: the controllers are ONLINE
    const stream = await openStream(installer, 'portalNotification.onEvent');
    const successAt = new Map<string, number>();
    let scanned = 0;
    const scan = () => {
      for (; scanned < stream.events.length; scanned++) {
        const toast = (stream.events[scanned] as { toast?: { id: string; actionResponse?: string } }).toast;
        if (toast?.actionResponse === 'SUCCESS') successAt.set(toast.id, stream.arrivals[scanned]);
      }
    };
    const waitSuccess = async (id: string, ms = 10_000) => {
      const until = Date.now() + ms;
      for (;;) {
        scan();
        const at = successAt.get(id);
        if (at !== undefined) return at;
        if (Date.now() > until) throw new Error(`command_rtt: no SUCCESS toast for ${id} within ${ms} ms`);
        await new Promise((r) => setTimeout(r, 1));
      }
    };
    // Warm-up (JIT, pools), not counted.
    for (let i = 0; i < 20; i++) await waitSuccess(await send(installer, fleet[i % fleet.length].controller_id, i));
    const rtts: number[] = [];
    for (let i = 0; i < total; i++) {
      const start = performance.timeOrigin + performance.now();
      const id = await send(installer, fleet[i % fleet.length].controller_id, i);
      rtts.push((await waitSuccess(id)) - start);
    }
    await stream.close();
    rtts.sort((a, b) => a - b);
    const pick = (q: number) => Number(rtts[Math.min(rtts.length - 1, Math.floor(rtts.length * q))].toFixed(1));
    ctx.log(`command_rtt: ${rtts.length} commands, p50 ${pick(0.5)} ms, p95 ${pick(0.95)} ms, p99 ${pick(0.99)} ms`);
    return {
      figure: 'command_rtt',
      value: pick(0.5),
      unit: 'ms',
      p50_ms: pick(0.5),
      p95_ms: pick(0.95),
      p99_ms: pick(0.99),
      notes: `controllerCommand.send → SUCCESS toast on the SSE stream, through Mosquitto to ${fleet.length} simulated controllers acking at once, ${rtts.length} commands one after the other; goal p95 ≤ 250 ms`,
    };
  } catch (error) {
    if (s.server) console.error(s.server.output().split('\n').slice(-40).join('\n'));
    throw error;
  } finally {
    await tearDown(s);
  }
}

export async function commandBacklogFigure(ctx: BenchContext): Promise<FigureResult> {
  const controllers = 100;
  const perController = 10;
  const kind = process.env.BENCH_BACKLOG_KIND === 'set_export_limit' ? 'set_export_limit' : 'apply_config';
  const s: Partial<Setup> = {};
  try {
    Object.assign(s, await setUp('command_backlog', controllers));
    const { fleet, broker, installer, pg } = s as Setup;
    if (fleet.length < controllers) throw new Error(`command_backlog: ${fleet.length} controllers generated, ${controllers} wanted`);
    // 1,000 commands for controllers that never connected: stored, PENDING.
    // Interleaved: the parallel sends go to different controllers.
    const jobs = Array.from({ length: perController }, (_, k) => fleet.map((c) => [c.controller_id, k] as const)).flat();
    for (let i = 0; i < jobs.length; i += 8) {
      await Promise.all(jobs.slice(i, i + 8).map(([id, k]) => send(installer, id, k, kind)));
    }
    const count = async (status: string) =>
      (
        (await pg.query(`SELECT count(*)::int AS n FROM controller_command WHERE controller_id ~ '^sim-ctrl-' AND status::text = $1`, [status])).rows[0] as {
          n: number;
        }
      ).n;
    const pending = await count('PENDING');
    if (pending !== jobs.length) throw new Error(`command_backlog: ${pending} of ${jobs.length} commands PENDING before the reconnect`);
    ctx.log(`command_backlog: ${jobs.length} ${kind} commands stored for ${fleet.length} offline controllers; all connect now`);

    const transport = new MqttTransport(broker.url, 'portal/v1', { delayMs: 0 });
    s.transport = transport;
    const [{ t0 }] = (await pg.query(`SELECT now() AS t0`)).rows as { t0: Date }[];
    const start = performance.now();
    await transport.connectAll(fleet);
    let done = 0;
    const deadline = Date.now() + 120_000;
    const connected = (performance.now() - start) / 1000;
    let allSent: number | undefined;
    while ((done = await count('SUCCESS')) < jobs.length && Date.now() < deadline) {
      if (allSent === undefined && (await count('PENDING')) === 0) allSent = (performance.now() - start) / 1000;
      await new Promise((r) => setTimeout(r, 20));
    }
    const seconds = (performance.now() - start) / 1000;
    ctx.log(`command_backlog: connected after ${connected.toFixed(2)} s, nothing PENDING after ${allSent?.toFixed(2) ?? '?'} s`);
    // Where the time goes, from the database's own clock: hand-over to the broker and the answers.
    const [spread] = (
      await pg.query(
        `SELECT extract(epoch FROM min(sent_at) - $1) AS first_sent, extract(epoch FROM max(sent_at) - $1) AS last_sent,
                extract(epoch FROM min(acked_at) - $1) AS first_ack, extract(epoch FROM max(acked_at) - $1) AS last_ack
           FROM controller_command WHERE controller_id ~ '^sim-ctrl-'`,
        [t0],
      )
    ).rows as Record<string, number>[];
    ctx.log(
      `command_backlog: sent ${Number(spread.first_sent).toFixed(2)}–${Number(spread.last_sent).toFixed(2)} s, acknowledged ${Number(spread.first_ack).toFixed(2)}–${Number(spread.last_ack).toFixed(2)} s after the connects began`,
    );
    if (done < jobs.length) throw new Error(`command_backlog: only ${done} of ${jobs.length} acknowledged within 120 s`);
    const rate = Number((jobs.length / seconds).toFixed(0));
    ctx.log(`command_backlog: ${jobs.length} acknowledged in ${seconds.toFixed(2)} s`);
    return {
      figure: 'command_backlog',
      value: rate,
      unit: 'commands/s',
      notes: `${jobs.length} queued ${kind} commands, ${fleet.length} offline controllers connecting at once through Mosquitto, from the connects to the last SUCCESS recorded (${seconds.toFixed(2)} s); goal ≥ 500/s`,
    };
  } catch (error) {
    if (s.server) console.error(s.server.output().split('\n').slice(-40).join('\n'));
    throw error;
  } finally {
    await tearDown(s);
  }
}
