// Embedded smoke test: the built server with no DATABASE_URL on a fresh data folder.
// Starts it, logs in as the demo superuser, calls role.all, checks 401 without a session, stops.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const dataDir = mkdtempSync(join(tmpdir(), 'portal-smoke-'));
const port = await freePort();
const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, HOST: '127.0.0.1' };
delete env.DATABASE_URL;
const server = spawn(process.execPath, ['dist/server/src/main.js'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
let output = '';
server.stdout.on('data', (d) => (output += d));
server.stderr.on('data', (d) => (output += d));

const base = `http://127.0.0.1:${port}`;
const fail = (message) => {
  console.error(`SMOKE FAILED: ${message}\n--- server output ---\n${output}`);
  server.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
};

const started = Date.now();
for (;;) {
  if (server.exitCode !== null) fail(`server exited with ${server.exitCode}`);
  try {
    const r = await fetch(`${base}/api/auth/session`);
    if (r.status === 401) break;
  } catch {
    /* not listening yet */
  }
  if (Date.now() - started > 120_000) fail('server did not start within 120 s');
  await new Promise((r) => setTimeout(r, 250));
}
const bootMs = Date.now() - started;

const input = encodeURIComponent(JSON.stringify({ 0: { json: null } }));
const anonymous = await fetch(`${base}/api/trpc/role.all?batch=1&input=${input}`);
if (anonymous.status !== 401) fail(`role.all without a session answered ${anonymous.status}`);

const login = await fetch(`${base}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'superuser@demo.local', password: 'demo-password' }),
});
if (login.status !== 200) fail(`login answered ${login.status}: ${await login.text()}`);
const cookie = login.headers
  .getSetCookie()
  .find((c) => c.startsWith('liuc='))
  ?.split(';')[0];
if (!cookie) fail('login set no liuc cookie');

const roles = await fetch(`${base}/api/trpc/role.all?batch=1&input=${input}`, { headers: { cookie } });
const body = await roles.json();
const names = body?.[0]?.result?.data?.json?.map((r) => r.name);
if (roles.status !== 200 || JSON.stringify(names) !== JSON.stringify(['Superuser', 'SystemInstaller', 'Expert', 'Basic'])) {
  fail(`role.all answered ${roles.status}: ${JSON.stringify(body)}`);
}

server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
rmSync(dataDir, { recursive: true, force: true });
console.log(`embedded smoke: started in ${bootMs} ms, login 200, role.all 200 with ${names.length} roles, 401 without session`);
