import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './mosquitto';

export interface HaproxyBackend {
  /** The server's name in HAProxy's configuration and stats (e.g. 'a', 'b'). */
  name: string;
  host: string;
  port: number;
}

export interface Haproxy {
  /** http://127.0.0.1:<port> — what a browser or API client talks to. */
  url: string;
  port: number;
  proc: ChildProcess;
  /** HAProxy's own view of each server: 'UP', 'DOWN', 'MAINT'… (from its stats socket). */
  serverStates(): Promise<Record<string, string>>;
  /** Every row of `show stat` by column name (pxname, svname, status, chkfail, chkdown, hrsp_5xx…). */
  stats(): Promise<Record<string, string>[]>;
  /** Waits until HAProxy sees the named servers in the given state (health checks every 500 ms). */
  waitFor(state: 'UP' | 'DOWN', names: string[], timeoutMs?: number): Promise<void>;
  /**
   * The requests HAProxy is carrying now (its `show sess`): to which server and for how long. An
   * idle keep-alive connection carries none, so an old one is a long-lived stream (SSE).
   */
  streams(): Promise<HaproxyStream[]>;
  stop(): Promise<void>;
}

export interface HaproxyStream {
  /** The backend server's name ('a', 'b'…). */
  server: string;
  ageSeconds: number;
}

/** Ages as `show sess` writes them: 12s, 3m4s, 1h2m… */
function seconds(age: string): number {
  let total = 0;
  for (const [, n, unit] of age.matchAll(/(\d+)([dhms])/g)) total += Number(n) * { d: 86400, h: 3600, m: 60, s: 1 }[unit as 'd' | 'h' | 'm' | 's'];
  return total;
}

/** Debian's HAProxy (`apt-get install -y haproxy`; `.ci/run` installs it). */
export function haproxyBinary(): string {
  const bin = [process.env.HAPROXY_PATH, '/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'].find((p) => {
    if (!p) return false;
    try {
      accessSync(p);
      return true;
    } catch {
      return false;
    }
  });
  if (!bin) throw new Error('haproxy is not installed (apt-get install -y haproxy)');
  return bin;
}

/**
 * The configuration the tests and `docker/haproxy.cfg` share in shape: round robin over the
 * instances, a health check on the readiness endpoint every 500 ms (down after 2 failures, up
 * after 1 success), a request whose connection failed is sent to another server, and live
 * streams (SSE) kept open: `timeout server` is the idle limit between two bytes of a stream, and
 * the portal sends a keep-alive comment well inside it.
 */
export function haproxyConfig(port: number, backends: HaproxyBackend[], statsSocket: string): string {
  return [
    'global',
    '  maxconn 4096',
    `  stats socket ${statsSocket} mode 600 level admin`,
    'defaults',
    '  mode http',
    '  option httplog',
    '  option redispatch',
    '  retries 3',
    '  retry-on conn-failure',
    '  timeout connect 2s',
    // Without it a check's whole exchange must fit in `inter` (500 ms): a busy instance queuing its
    // readiness query behind its requests was marked DOWN while it answered (the list_2x bench).
    // A dead instance still fails at once (connection refused). 3 s was not enough on a 2-core
    // machine loaded by other jobs (load average 15): readiness took up to 2.3 s there.
    '  timeout check 5s',
    '  timeout client 120s',
    '  timeout server 120s',
    '  timeout tunnel 1h',
    '  timeout http-keep-alive 30s',
    'frontend portal',
    `  bind 127.0.0.1:${port}`,
    '  option forwardfor',
    '  default_backend instances',
    'backend instances',
    '  balance roundrobin',
    '  option httpchk GET /api/health/ready',
    '  http-check expect status 200',
    '  default-server inter 500ms fall 2 rise 1',
    ...backends.map((b) => `  server ${b.name} ${b.host}:${b.port} check`),
    '',
  ].join('\n');
}

async function ask(socket: string, command: string): Promise<string> {
  return new Promise((done, fail) => {
    let out = '';
    const c = connect(socket, () => c.end(`${command}\n`));
    c.on('data', (d) => (out += d.toString()));
    c.on('end', () => done(out));
    c.on('error', fail);
  });
}

/** Starts HAProxy on a free port in front of `backends`; resolves once it accepts connections. */
export async function startHaproxy(backends: HaproxyBackend[]): Promise<Haproxy> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'portal-haproxy-'));
  const statsSocket = join(dir, 'stats.sock');
  const conf = join(dir, 'haproxy.cfg');
  writeFileSync(conf, haproxyConfig(port, backends, statsSocket));
  const proc = spawn(haproxyBinary(), ['-db', '-f', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr?.on('data', (d) => (stderr += d));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`haproxy exited: ${stderr}`);
    const open = await new Promise<boolean>((done) => {
      const s = connect(port, '127.0.0.1', () => {
        s.destroy();
        done(true);
      });
      s.on('error', () => done(false));
    });
    if (open) break;
    if (Date.now() - started > 15_000) {
      proc.kill('SIGKILL');
      throw new Error(`haproxy did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  const stats = async (): Promise<Record<string, string>[]> => {
    const csv = await ask(statsSocket, 'show stat');
    const header = csv.split('\n')[0].replace(/^# /, '').split(',');
    return csv
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => {
        const f = l.split(',');
        return Object.fromEntries(header.map((h, i) => [h, f[i] ?? '']));
      });
  };

  const serverStates = async (): Promise<Record<string, string>> => {
    const csv = await ask(statsSocket, 'show stat');
    const lines = csv.split('\n').filter((l) => l && !l.startsWith('#'));
    const header = csv.split('\n')[0].replace(/^# /, '').split(',');
    const at = (name: string) => header.indexOf(name);
    const out: Record<string, string> = {};
    for (const line of lines) {
      const f = line.split(',');
      if (f[at('pxname')] === 'instances' && !['FRONTEND', 'BACKEND'].includes(f[at('svname')])) out[f[at('svname')]] = f[at('status')];
    }
    return out;
  };

  return {
    url,
    port,
    proc,
    serverStates,
    stats,
    async waitFor(state, names, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const states = await serverStates();
        if (names.every((n) => (states[n] ?? '').startsWith(state))) return;
        if (Date.now() > until) throw new Error(`haproxy: ${names.join(', ')} not ${state} after ${timeoutMs} ms: ${JSON.stringify(states)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async streams() {
      const out = await ask(statsSocket, 'show sess');
      const streams: HaproxyStream[] = [];
      for (const line of out.split('\n')) {
        const server = /\bbe=instances srv=(\S+)/.exec(line)?.[1];
        const age = /\bage=(\S+)/.exec(line)?.[1];
        if (server && server !== '<none>' && age) streams.push({ server, ageSeconds: seconds(age) });
      }
      return streams;
    },
    stop: () =>
      new Promise<void>((done) => {
        const finish = () => {
          rmSync(dir, { recursive: true, force: true });
          done();
        };
        if (proc.exitCode !== null) return finish();
        proc.once('exit', finish);
        proc.kill('SIGTERM');
      }),
  };
}
