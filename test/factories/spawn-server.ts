import { randomBytes } from 'node:crypto';
import { type ChildProcess, spawn } from 'node:child_process';
import { basename, resolve } from 'node:path';
import { freePort } from './mosquitto';

/** The built portal in its own process (bench, kill -9 test); TELEMETRY_SERVER_ENTRY overrides it. */
export function telemetryServerEntry(): string {
  // Built (dist/test/factories) or run from source by Jest (test/factories): the server is dist/server/src/main.js either way.
  const root = resolve(__dirname, '..', '..');
  const dist = basename(root) === 'dist' ? root : resolve(root, 'dist');
  return process.env.TELEMETRY_SERVER_ENTRY ?? resolve(dist, 'server', 'src', 'main.js');
}

export interface SpawnedServer {
  baseUrl: string;
  port: number;
  proc: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

export async function spawnTelemetryServer(env: Record<string, string>, port?: number): Promise<SpawnedServer> {
  const p = port ?? (await freePort());
  let out = '';
  // SERVER_NODE_ARGS: node flags for the spawned server, e.g. `--cpu-prof --cpu-prof-dir=DIR` to profile it in a bench.
  const proc = spawn(process.execPath, [...(process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean), telemetryServerEntry()], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(p),
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      SIMULATOR: 'false',
      // No in-process broker unless asked for: the machine's own Mosquitto may hold 1883, and an
      // instance whose broker cannot listen is not ready.
      MQTT_PORT: '0',
      // Scripts and benches call far faster than people: no per-session brake unless asked for (the fairness bench).
      REQUESTS_PER_SESSION_PER_SECOND: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout?.on('data', (d) => (out += d));
  proc.stderr?.on('data', (d) => (out += d));
  const baseUrl = `http://127.0.0.1:${p}`;
  const started = Date.now();
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${out}`);
    try {
      if ((await fetch(`${baseUrl}/api/health/ready`)).ok) break;
    } catch {
      /* starting */
    }
    if (Date.now() - started > 90_000) {
      proc.kill('SIGKILL');
      throw new Error(`server did not start: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    port: p,
    proc,
    output: () => out,
    stop: () =>
      new Promise<void>((done) => {
        if (proc.exitCode !== null) return done();
        const t = setTimeout(() => proc.kill('SIGKILL'), 15_000);
        proc.once('exit', () => {
          clearTimeout(t);
          done();
        });
        proc.kill('SIGTERM');
      }),
  };
}
