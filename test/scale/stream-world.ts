import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateControllers } from '../../server/src/simulator/fleet';
import { type Cluster, type ClusterOptions, startDemoCluster } from '../factories/cluster';
import type { TestDatabase } from '../factories/database';
import { type Mosquitto, startMosquitto } from '../factories/mosquitto';
import { telemetryServerEntry } from '../factories/spawn-server';

/** Instances behind HAProxy on a fresh demo database and a Mosquitto of the test's own, with a scratch folder. */
export interface StreamWorld {
  db: TestDatabase;
  broker: Mosquitto;
  cluster: Cluster;
  /** Scratch folder (the simulator's ledger file). */
  dir: string;
  /** Rows in parameter_log. */
  stored: () => Promise<number>;
  /** (entity, parameter, timestamp) keys stored more than once. */
  duplicates: () => Promise<number>;
  close(): Promise<void>;
}

/**
 * The demo data plus `controllers` generated ones, and a cluster (test/factories/cluster.ts) sharing
 * one Mosquitto. The built server is required (`npm run build`).
 */
export async function startStreamWorld(
  name: string,
  opts: { controllers?: number } & Omit<ClusterOptions, 'databaseUrl' | 'mqttUrl'> = {},
): Promise<StreamWorld> {
  if (!existsSync(telemetryServerEntry())) throw new Error(`${telemetryServerEntry()} is missing: run npm run build first`);
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const broker = await startMosquitto();
  const { controllers, ...clusterOptions } = opts;
  const {
    db,
    cluster: started,
    stop,
  } = await startDemoCluster({
    ...clusterOptions,
    mqttUrl: broker.url,
    prepare: async (d) => void (await generateControllers(d.dataSource, controllers ?? 3)),
  });
  const count = async (sql: string) => (await db.dataSource.query<{ n: number }[]>(sql))[0].n;
  return {
    db,
    broker,
    cluster: started,
    dir,
    stored: () => count(`SELECT count(*)::int AS n FROM parameter_log`),
    duplicates: () =>
      count(`SELECT count(*)::int AS n FROM (SELECT 1 FROM parameter_log GROUP BY entity_cuid, parameter_id, "timestamp" HAVING count(*) > 1) d`),
    async close() {
      await stop();
      await broker.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
