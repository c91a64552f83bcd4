import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { LIVE_PING_MS } from '../../server/src/trpc/trpc';
import { haproxyConfig } from '../factories/haproxy';

/**
 * docker/compose.yaml and docker/haproxy.cfg as users run them (no Docker engine here: the files are
 * read, not started): N portal replicas on one PostgreSQL and one Mosquitto behind HAProxy, with the
 * settings every replica must share or must not share, and the proxy configured like the one the
 * cluster tests run (test/factories/haproxy.ts).
 */
interface Service {
  build?: { context?: string; dockerfile?: string };
  image?: string;
  environment?: Record<string, string | number | boolean | null>;
  ports?: string[];
  volumes?: string[];
  depends_on?: string[] | Record<string, unknown>;
  restart?: string;
}

const dockerDir = resolve(__dirname, '..', '..', 'docker');
// Compose resolves YAML merge keys (`<<: *portal`): so does the parser here.
const compose = parse(readFileSync(resolve(dockerDir, 'compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };
const haproxyCfg = readFileSync(resolve(dockerDir, 'haproxy.cfg'), 'utf8');
const cfgLines = haproxyCfg
  .split('\n')
  .map((l) => l.replace(/#.*/, '').trim())
  .filter(Boolean);

const services = compose.services;
const replicas = Object.entries(services).filter(([, s]) => s.build?.dockerfile === 'docker/Dockerfile');
const env = (s: Service) => s.environment ?? {};

/** The lines of one section of haproxy.cfg (`defaults`, `frontend portal`, `backend instances`…). */
function section(lines: string[], header: string): string[] {
  const start = lines.indexOf(header);
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^(global|defaults|frontend|backend|listen|resolvers|peers)\b/.test(line)) break;
    out.push(line);
  }
  return out;
}

describe('docker/compose.yaml: portal replicas behind HAProxy', () => {
  it('has at least two portal replicas, one PostgreSQL, one Mosquitto and HAProxy', () => {
    expect(replicas.length).toBeGreaterThanOrEqual(2);
    expect(services.postgres?.image).toMatch(/^postgres:/);
    expect(services.mosquitto?.image).toMatch(/^eclipse-mosquitto:/);
    expect(services.haproxy?.image).toMatch(/^haproxy:/);
    for (const [, s] of replicas) expect(s.restart).toBe('unless-stopped');
  });

  it('every replica has the same SESSION_SECRET, DATABASE_URL, MQTT_URL and share group', () => {
    for (const name of ['SESSION_SECRET', 'DATABASE_URL', 'MQTT_URL', 'MQTT_USERNAME', 'MQTT_PASSWORD', 'MQTT_SHARE_GROUP', 'TRUST_PROXY']) {
      const values = new Set(replicas.map(([, s]) => env(s)[name]));
      expect({ name, values: [...values] }).toEqual({ name, values: [expect.any(String)] });
      expect(String([...values][0]).length).toBeGreaterThan(0);
    }
    expect(String(env(replicas[0][1]).DATABASE_URL)).toMatch(/@postgres:5432\//);
    expect(String(env(replicas[0][1]).MQTT_URL)).toBe('mqtt://mosquitto:1883');
    expect(String(env(replicas[0][1]).TRUST_PROXY)).toBe('true');
  });

  it('each replica has its own stable INSTANCE_NAME and MQTT client id (a persistent MQTT session each)', () => {
    for (const name of ['INSTANCE_NAME', 'MQTT_CLIENT_ID']) {
      const values = replicas.map(([, s]) => String(env(s)[name] ?? ''));
      expect(new Set(values).size).toBe(replicas.length);
      // Written out, not taken from a variable that could be left the same or unset.
      for (const v of values) expect(v).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    }
  });

  it('only HAProxy and Mosquitto are published; the replicas are reached through HAProxy', () => {
    for (const [, s] of replicas) expect(s.ports ?? []).toEqual([]);
    const published = (services.haproxy.ports ?? []).map(String);
    expect(published).toHaveLength(1);
    const inside = published[0].split(':').at(-1);
    expect(section(cfgLines, 'frontend portal')).toContain(`bind :${inside}`);
    expect(services.haproxy.volumes).toContain('./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
  });

  it("HAProxy's backends are exactly the replicas, on the port they listen on", () => {
    const servers = section(cfgLines, 'backend instances')
      .filter((l) => l.startsWith('server '))
      .map((l) => l.split(/\s+/));
    expect(servers.map((s) => s[1]).sort()).toEqual(replicas.map(([name]) => name).sort());
    for (const s of servers) {
      const replica = services[s[1]];
      expect(s[2]).toBe(`${s[1]}:${String(env(replica).PORT ?? 3000)}`);
      expect(s).toContain('check');
    }
  });

  it('HAProxy is configured like the one the cluster tests run: health checks, retries, stream timeouts', () => {
    const tested = haproxyConfig(1, [], 'stats.sock')
      .split('\n')
      .map((l) => l.trim());
    for (const header of ['defaults', 'backend instances']) {
      const mine = section(cfgLines, header);
      for (const line of section(tested, header).filter((l) => l && !l.startsWith('server '))) {
        // docker's default-server line adds the Docker DNS resolver after the test's settings.
        expect({ header, line, present: mine.some((m) => m === line || m.startsWith(`${line} `)) }).toEqual({ header, line, present: true });
      }
    }
    expect(section(cfgLines, 'backend instances')).toContain('option httpchk GET /api/health/ready');
  });

  it('live streams get keep-alives well inside HAProxy’s idle limits', () => {
    const seconds = (name: string) =>
      Number(new RegExp(`^timeout ${name} (\\d+)s$`).exec(section(cfgLines, 'defaults').find((l) => l.startsWith(`timeout ${name} `)) ?? '')?.[1]);
    for (const name of ['server', 'client']) expect(seconds(name) * 1000).toBeGreaterThanOrEqual(4 * LIVE_PING_MS);
  });

  it('refuses /metrics from outside', () => {
    const deny = section(cfgLines, 'frontend portal').find((l) => l.startsWith('http-request deny'));
    expect(deny).toMatch(/\/metrics/);
    const denyAt = section(cfgLines, 'frontend portal').indexOf(deny!);
    expect(denyAt).toBeLessThan(section(cfgLines, 'frontend portal').findIndex((l) => l.startsWith('default_backend')));
  });
});
