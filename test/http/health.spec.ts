import { createServer, type Server } from 'node:net';
import { Readiness } from '../../server/src/health/readiness';
import { startTestApp, type TestApp } from '../factories/app';
import { freePort } from '../factories/mosquitto';

/**
 * Liveness apart from readiness on a real application (embedded or PostgreSQL): readiness names
 * the part that is not ready (here the in-process broker, whose port is taken) with no error
 * details, and turns to "draining" as soon as the application starts closing while liveness and
 * the in-flight service go on for SHUTDOWN_DRAIN_SECONDS.
 */
describe('health: liveness and readiness', () => {
  let t: TestApp;
  let squatter: Server;

  beforeAll(async () => {
    // Someone else holds the MQTT port: the in-process broker cannot listen.
    const port = await freePort();
    squatter = createServer();
    await new Promise<void>((done) => squatter.listen(port, '127.0.0.1', done));
    t = await startTestApp({ MQTT_PORT: String(port), MQTT_HOST: '127.0.0.1', SHUTDOWN_DRAIN_SECONDS: '5', LOG_LEVEL: 'error' });
  });
  afterAll(async () => {
    await t?.db.close();
    await new Promise((done) => squatter?.close(done));
  });

  const get = async (path: string) => {
    const res = await fetch(`${t.baseUrl}${path}`);
    return { status: res.status, body: await res.json() };
  };

  it('liveness answers without looking at anything', async () => {
    expect(await get('/api/health')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await get('/api/health/live')).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('readiness: 503 naming the broker whose listener is not up, the database ok, no stack and no SQL', async () => {
    const ready = await get('/api/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({
      code: 'UNAVAILABLE',
      status: 'not_ready',
      message: 'The MQTT broker is not reachable',
      not_ready: ['broker'],
      checks: { instance: 'ok', database: 'ok', broker: 'down' },
    });
    expect(JSON.stringify(ready.body)).not.toMatch(/SELECT|stack|at \w+ \(|EADDRINUSE/);
    // In French for a French caller, like every REST error.
    const fr = await fetch(`${t.baseUrl}/api/health/ready`, { headers: { 'accept-language': 'fr' } });
    expect((await fr.json()).message).toBe("Le broker MQTT n'est pas joignable");
  });

  it('closing: readiness turns to draining at once while liveness answers, for SHUTDOWN_DRAIN_SECONDS', async () => {
    // The drain's wait is held open by the test: what is checked is an order (draining, still
    // serving, closed only once the drain ends), never how long it took.
    const readiness = t.app.get(Readiness);
    const waits: number[] = [];
    let endDrain!: () => void;
    const drainEnded = new Promise<void>((done) => (endDrain = done));
    readiness.drainWait = (ms) => {
      waits.push(ms);
      return drainEnded;
    };
    let closed = false;
    const closing = t.app.close().then(() => (closed = true));
    let drained: { status: number; body: any } | undefined;
    // The destroy hooks run first; readiness says draining while the server still answers.
    while (!closed) {
      drained = await get('/api/health/ready').catch(() => undefined);
      if (drained?.body.status === 'draining') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(closed).toBe(false);
    expect(drained).toMatchObject({ status: 503, body: { status: 'draining', message: 'This instance is shutting down', not_ready: ['instance', 'broker'] } });
    // The drain waits SHUTDOWN_DRAIN_SECONDS (5 s here) before Nest closes the HTTP server.
    while (waits.length === 0 && !closed) await new Promise((r) => setTimeout(r, 20));
    expect(waits).toEqual([5000]);
    // However long the drain is held, the instance keeps serving and does not close.
    for (let i = 0; i < 3; i++) {
      expect(await get('/api/health/live')).toEqual({ status: 200, body: { status: 'ok' } });
      expect((await get('/api/health/ready')).body.status).toBe('draining');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(closed).toBe(false);
    // The drain ends: only now does the HTTP server close.
    endDrain();
    await closing;
    expect(closed).toBe(true);
    await expect(fetch(`${t.baseUrl}/api/health/live`)).rejects.toThrow();
  });
});
