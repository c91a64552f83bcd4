import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const freePort = (): Promise<number> =>
  new Promise((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => done(port));
    });
  });

export interface Mosquitto {
  url: string;
  port: number;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/**
 * A Mosquitto of the test's own (own port, own persistence folder), so tests neither disturb nor
 * depend on the machine's broker. Queues are large: a QoS 1 backlog must never be dropped.
 */
export async function startMosquitto(extraConfig: string[] = [], options: { port?: number } = {}): Promise<Mosquitto> {
  // A given port: a broker started again where its clients expect it (readiness tests).
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'telemetry-mosquitto-'));
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence true',
      `persistence_location ${dir}/`,
      'max_queued_messages 1000000',
      'max_inflight_messages 100',
      'log_dest none',
      ...extraConfig,
      '',
    ].join('\n'),
  );
  const bin = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto', '/usr/local/sbin/mosquitto'].find((p) => {
    try {
      accessSync(p);
      return true;
    } catch {
      return false;
    }
  });
  if (!bin) throw new Error('mosquitto is not installed (apt-get install -y mosquitto)');
  const proc = spawn(bin, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr?.on('data', (d) => (stderr += d));
  const started = Date.now();
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`mosquitto exited: ${stderr}`);
    const open = await new Promise<boolean>((done) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), done(true)));
      s.once('error', () => done(false));
    });
    if (open) break;
    if (Date.now() - started > 10_000) throw new Error(`mosquitto did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    proc,
    stop: () =>
      new Promise<void>((done) => {
        if (proc.exitCode !== null) {
          rmSync(dir, { recursive: true, force: true });
          return done();
        }
        proc.once('exit', () => {
          rmSync(dir, { recursive: true, force: true });
          done();
        });
        proc.kill('SIGTERM');
      }),
  };
}
