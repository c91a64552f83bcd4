import { randomBytes } from 'node:crypto';
import { createDemoDataSource, type TestDatabase } from './database';
import { type Haproxy, startHaproxy } from './haproxy';
import { freePort } from './mosquitto';
import { type SpawnedServer, spawnTelemetryServer } from './spawn-server';

export interface ClusterInstance {
  /** 'a', 'b', … : the INSTANCE_NAME, the MQTT client id's tail and HAProxy's server name. */
  name: string;
  port: number;
  server?: SpawnedServer;
}

export interface Cluster {
  /** HAProxy in front of every instance: what browsers and API clients use. */
  proxy: Haproxy;
  url: string;
  instances: ClusterInstance[];
  /** kill -9 of one instance (no shutdown hook runs); HAProxy marks it DOWN within about a second. */
  kill(name: string): Promise<void>;
  /** Starts a killed or stopped instance again on its own port, with its own MQTT client id. */
  restart(name: string): Promise<void>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** How many instances (default 2). */
  instances?: number;
  /** PostgreSQL every instance shares. */
  databaseUrl: string;
  /** The broker every instance shares (an external Mosquitto); unset → no MQTT ingest. */
  mqttUrl?: string;
  /** More settings for every instance. */
  env?: Record<string, string>;
  /** Settings of one instance by name. */
  envOf?: (name: string) => Record<string, string>;
}

/**
 * N built portal processes (`npm run build` first) on one PostgreSQL and one broker, behind a real
 * HAProxy: the same SESSION_SECRET (a cookie from one instance opens a session on any), each its own
 * INSTANCE_NAME and MQTT client id in one shared-subscription group.
 */
export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const n = opts.instances ?? 2;
  const secret = randomBytes(32).toString('base64url');
  const instances: ClusterInstance[] = [];
  for (let i = 0; i < n; i++) instances.push({ name: String.fromCharCode(97 + i), port: await freePort() });

  const envFor = (name: string): Record<string, string> => ({
    DATABASE_URL: opts.databaseUrl,
    SESSION_SECRET: secret,
    INSTANCE_NAME: name,
    SEED_DEMO: 'false',
    // No broker asked for: no in-process one either (instances would fight over port 1883, and
    // readiness counts a broker that could not listen as not ready).
    ...(opts.mqttUrl ? { MQTT_URL: opts.mqttUrl, MQTT_CLIENT_ID: `portal-${name}`, MQTT_SHARE_GROUP: 'portal' } : { MQTT_PORT: '0' }),
    ...opts.env,
    ...opts.envOf?.(name),
  });
  const start = async (inst: ClusterInstance) => {
    inst.server = await spawnTelemetryServer(envFor(inst.name), inst.port);
  };
  // Started together, as an orchestrator would: migrations and seeds take turns under a lock.
  await Promise.all(instances.map(start));
  const proxy = await startHaproxy(instances.map((i) => ({ name: i.name, host: '127.0.0.1', port: i.port })));
  await proxy.waitFor(
    'UP',
    instances.map((i) => i.name),
  );

  const byName = (name: string) => {
    const inst = instances.find((i) => i.name === name);
    if (!inst) throw new Error(`no instance ${name}`);
    return inst;
  };
  return {
    proxy,
    url: proxy.url,
    instances,
    async kill(name) {
      const inst = byName(name);
      const proc = inst.server?.proc;
      if (proc && proc.exitCode === null) {
        await new Promise<void>((done) => {
          proc.once('exit', () => done());
          proc.kill('SIGKILL');
        });
      }
      inst.server = undefined;
      await proxy.waitFor('DOWN', [name]);
    },
    async restart(name) {
      const inst = byName(name);
      if (inst.server) throw new Error(`instance ${name} is running`);
      await start(inst);
      await proxy.waitFor('UP', [name]);
    },
    async stop() {
      await proxy.stop();
      await Promise.all(instances.map((i) => i.server?.stop() ?? Promise.resolve()));
    },
  };
}

/**
 * A fresh database with the roles and the demo data (`prepare` adds more before any instance
 * starts) and a cluster on it; `stop()` ends the cluster, then the database.
 */
export async function startDemoCluster(
  opts: Omit<ClusterOptions, 'databaseUrl'> & { prepare?: (db: TestDatabase) => Promise<void> } = {},
): Promise<{ db: TestDatabase; cluster: Cluster; stop: () => Promise<void> }> {
  const { prepare, ...clusterOptions } = opts;
  const db = await createDemoDataSource();
  await prepare?.(db);
  const cluster = await startCluster({ ...clusterOptions, databaseUrl: (db.dataSource.options as { url: string }).url });
  return {
    db,
    cluster,
    stop: async () => {
      await cluster.stop();
      await db.close();
    },
  };
}
