import type { DataSource } from 'typeorm';
import { systemJob } from '../common/system-job';
import { loadFleet } from './fleet';
import { SimulatorFleetRepository } from './simulator-fleet.repository';
import { type SendResult, Simulator } from './simulator';
import { DirectTransport, MqttTransport } from './transports';

export interface EmbeddedSimulatorOptions {
  /** In-process broker port, or 0 to call ingest directly. */
  mqttPort: number;
  topicPrefix: string;
  intervalSeconds: number;
  backfillHours: number;
  /** How long a simulated controller takes to apply a configuration (ms). */
  commandDelayMs?: number;
  /** Used when there is no broker. */
  direct: (controller_id: string, kind: 'telemetry' | 'heartbeat', payload: unknown) => Promise<SendResult['answer'] | undefined>;
  log(message: string): void;
}

/**
 * The small simulator of the embedded `npm start`: the seeded controllers (at most 5), a day of
 * history at one-minute steps the first time (later: from where the stored data ends), then live
 * samples every `intervalSeconds`, through the in-process MQTT broker when it listens. Over the
 * broker the controllers take commands too (docs/controller-protocol.md, *Commands*): a persistent
 * session subscribed to their command topic; link outages really close the connection.
 * Returns a stop function.
 */
export async function startEmbeddedSimulator(ds: DataSource, o: EmbeddedSimulatorOptions): Promise<(() => Promise<void>) | undefined> {
  const fleet = await loadFleet(ds, { limit: 5 });
  if (!fleet.length) {
    o.log('simulator: no controller with devices to drive');
    return undefined;
  }
  const entities = fleet.flatMap((c) => c.entities.map((e) => e.entity_cuid));
  const last = await new SimulatorFleetRepository(ds).lastDataAt(systemJob('simulator'), entities);
  const from = Math.max(Date.now() - o.backfillHours * 3_600_000, last ? last.getTime() + 60_000 : 0);
  // Over the broker the controllers also take commands (apply a configuration after a short delay, …).
  const commands = { delayMs: o.commandDelayMs ?? 1500 };
  const transport = o.mqttPort > 0 ? new MqttTransport(`mqtt://127.0.0.1:${o.mqttPort}`, o.topicPrefix, commands) : new DirectTransport(o.direct);
  const sim = new Simulator(fleet, transport, {
    intervalSeconds: o.intervalSeconds,
    historyIntervalSeconds: 60,
    speed: 1,
    from,
    rowsPerMessage: 1000,
    inFlight: 2,
    offlinePerHour: 0.2,
    offlineMinutes: [2, 8],
    // The demo's "controller offline" alarm (seed/demo-seed.ts) shows a few minutes after start.
    firstOutage: { afterMinutes: 2, minutes: 4 },
  });
  o.log(
    `simulator: driving ${fleet.map((c) => c.controller_id).join(', ')} over ${o.mqttPort > 0 ? `MQTT :${o.mqttPort}` : 'in-process ingest'} (SIMULATOR=false turns it off)`,
  );
  const running = sim.start().catch((e: Error) => o.log(`simulator stopped: ${e.message}`));
  return async () => {
    await sim.stop();
    await running;
    await transport.close();
  };
}
