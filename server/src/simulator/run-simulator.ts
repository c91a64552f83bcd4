import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { openDatabase } from '../database/data-source';
import { generateControllers, loadFleet } from './fleet';
import { type SimTransport, Simulator } from './simulator';
import { HttpTransport, MqttTransport } from './transports';

const HELP = `npm run simulate -- [options]

Drives controllers of a PostgreSQL-backed portal with realistic data (PV following the sun,
battery charge, a genset at low charge, noise, dropouts, link outages with buffered backfill).
The embedded portal (npm start without DATABASE_URL) runs its own small simulator instead.

  --database-url URL      where the controllers are (default: DATABASE_URL)
  --mqtt URL              send over MQTT, QoS 1 (e.g. mqtt://127.0.0.1:1883)
  --http URL              send over HTTP (default: http://127.0.0.1:$PORT or :3000)
  --controllers a,b       these controllers (default: every controller with devices)
  --generate N            first add N controllers sim-ctrl-0001… ("Simulated Fleet" company)
  --interval S            seconds between samples (default 10)
  --speed X               1 = real time (default), 0 = as fast as acknowledgements allow
  --backfill-hours H      send the last H hours first, as a controller coming back does (default 0)
  --from ISO --until ISO  simulate this range instead (with --speed 0: a replay)
  --duration S            stop after S seconds of wall time
  --rows-per-message N    (default 500)   --in-flight N  messages outstanding per controller (default 4)
  --dropout-rate F        fraction of samples lost (default 0.01)
  --offline-per-hour F    chance of a link outage per hour (default 0.05)
  --ledger FILE           append every acknowledged batch (JSON lines)
  --topic-prefix P        (default portal/v1)
  --command-delay MS      the controllers take commands (docs/controller-protocol.md, Commands):
                          applying a configuration takes this long (default 1500; 0 = at once)
  --command-poll S        over HTTP: fetch waiting commands every S seconds (default 3)
  --no-commands           do not take commands (MQTT: a clean session, no command subscription)`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string' },
      mqtt: { type: 'string' },
      http: { type: 'string' },
      controllers: { type: 'string' },
      generate: { type: 'string' },
      interval: { type: 'string', default: '10' },
      speed: { type: 'string', default: '1' },
      'backfill-hours': { type: 'string', default: '0' },
      from: { type: 'string' },
      until: { type: 'string' },
      duration: { type: 'string' },
      'rows-per-message': { type: 'string', default: '500' },
      'in-flight': { type: 'string', default: '4' },
      'dropout-rate': { type: 'string', default: '0.01' },
      'offline-per-hour': { type: 'string', default: '0.05' },
      ledger: { type: 'string' },
      'topic-prefix': { type: 'string', default: 'portal/v1' },
      seed: { type: 'string', default: '1' },
      'command-delay': { type: 'string', default: '1500' },
      'command-poll': { type: 'string', default: '3' },
      'no-commands': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const url = values['database-url'] ?? process.env.DATABASE_URL;
  if (!url) {
    console.error(
      'The simulator reads the controllers from PostgreSQL: set DATABASE_URL or --database-url.\n' +
        'With the embedded database, npm start already runs a simulator (SIMULATOR=false turns it off).',
    );
    process.exit(2);
  }
  const num = (name: keyof typeof values, min: number): number => {
    const n = Number(values[name]);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${String(name)} must be a number ≥ ${min}`);
    return n;
  };
  const date = (name: 'from' | 'until'): number | undefined => {
    if (!values[name]) return undefined;
    const t = Date.parse(values[name]);
    if (Number.isNaN(t)) throw new Error(`--${name} must be an ISO date`);
    return t;
  };

  const db = await openDatabase({ url, poolSize: 2 }, false);
  let fleet;
  try {
    if (values.generate) await generateControllers(db.dataSource, num('generate', 1));
    fleet = await loadFleet(db.dataSource, {
      controllers: values.controllers
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    });
  } finally {
    await db.close();
  }
  if (!fleet.length) {
    console.error('No controller with devices found (seed the demo or use --generate N).');
    process.exit(1);
  }
  const commands = values['no-commands']
    ? undefined
    : {
        delayMs: num('command-delay', 0),
        pollMs: num('command-poll', 0.1) * 1000,
        onAck: (id: string, ack: { id: string; status: string; message?: string }) =>
          console.log(`${id}: command ${ack.id} → ${ack.status}${ack.message ? ` (${ack.message})` : ''}`),
      };
  const transport: SimTransport = values.mqtt
    ? new MqttTransport(values.mqtt, values['topic-prefix'], commands)
    : new HttpTransport(values.http ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`, commands);
  const until = date('until');
  const sim = new Simulator(fleet, transport, {
    intervalSeconds: num('interval', 1),
    speed: num('speed', 0),
    backfillHours: num('backfill-hours', 0),
    from: date('from'),
    until,
    rowsPerMessage: num('rows-per-message', 1),
    inFlight: num('in-flight', 1),
    dropoutRate: num('dropout-rate', 0),
    offlinePerHour: num('offline-per-hour', 0),
    seed: num('seed', 0),
    ledgerFile: values.ledger,
    onError: (id, e) => console.warn(`${id}: ${e.message} (will retry)`),
  });
  console.log(`Simulating ${fleet.length} controller(s) over ${values.mqtt ? `MQTT ${values.mqtt}` : 'HTTP'}: ${fleet.map((c) => c.controller_id).join(', ')}`);
  const report = setInterval(
    () => console.log(`generated ${sim.stats.generated}, acknowledged ${sim.stats.acknowledged} rows, ${sim.stats.failures} failed sends`),
    10_000,
  );
  const stop = () => void sim.stop();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (values.duration) setTimeout(stop, num('duration', 1) * 1000).unref();
  await sim.start();
  clearInterval(report);
  await transport.close();
  console.log(`done: generated ${sim.stats.generated}, acknowledged ${sim.stats.acknowledged} rows in ${sim.ledger.acknowledgedMessages} batches`);
}

main().catch((error: unknown) => {
  console.error(`simulator failed: ${(error as Error).message}`);
  process.exit(1);
});
