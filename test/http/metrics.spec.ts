import { randomBytes } from 'node:crypto';
import { CONTROLLER_COMMAND_STATUSES } from '../../shared/common/enums';
import { DEMO_COMPANY_NAME, DEMO_CONTROLLER_ID, DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { issueSimulatorToken } from '../../server/src/simulator/fleet';
import { addEvents, addTrigger, companyByName, eventually, eventValue, systemByName } from '../factories/alert-fixtures';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { parsePrometheus, select, total, type Sample } from '../factories/prometheus';
import { openStream } from '../factories/sse';
import { ingest } from '../mqtt/support/telemetry-app';

/**
 * GET /metrics: Prometheus text, every series labelled with the instance, and each portal series
 * moved by what it counts. Runs on PostgreSQL when TEST_DATABASE_URL is set, else embedded.
 */
describe('/metrics', () => {
  let t: TestApp;
  let token: string;
  let battery: string;
  const q = <T = any>(sql: string, p?: unknown[]) => t.db.dataSource.query<T[]>(sql, p);

  const scrape = async (): Promise<Sample[]> => {
    const res = await fetch(`${t.baseUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheus(await res.text());
  };

  beforeAll(async () => {
    // Delivery off: a PENDING outbox event stays PENDING while the test reads it.
    t = await startTestApp({ INSTANCE_NAME: 'metrics-a', ALERTS_DELIVERY_ENABLED: 'false', COMMAND_POLL_MS: '0' });
    const [ctrl] = await q(`SELECT company_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
    token = await issueSimulatorToken(t.db.dataSource, ctrl.company_cuid, 'metrics test');
    [{ entity_cuid: battery }] = await q(`SELECT entity_cuid FROM entity WHERE controller_id = $1 AND entitytype_id = 'pylontech-us5000'`, [
      DEMO_CONTROLLER_ID,
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('parses as Prometheus text; every sample carries instance; process metrics and every portal series are there', async () => {
    const samples = await scrape();
    expect(samples.length).toBeGreaterThan(50);
    expect(samples.filter((s) => s.labels.instance !== 'metrics-a')).toEqual([]);
    const names = new Set(samples.map((s) => s.name));
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'portal_ingest_rows_total',
      'portal_engine_lag_seconds',
      'portal_engine_queue_samples',
      'portal_outbox_depth',
      'portal_outbox_oldest_age_seconds',
      'portal_commands',
      'portal_live_streams',
      'portal_mqtt_connected',
      'portal_metric_errors',
    ]) {
      expect([name, names.has(name)]).toEqual([name, true]);
    }
    // Every scrape-time read succeeded.
    expect(
      select(samples, 'portal_metric_errors')
        .map((s) => [s.labels.source, s.value])
        .sort(),
    ).toEqual([
      ['commands', 0],
      ['engine_timers', 0],
      ['outbox', 0],
    ]);
    // No external broker here.
    expect(total(samples, 'portal_mqtt_connected')).toBe(0);
  });

  it('HTTP ingest moves portal_ingest_rows_total by exactly the rows stored, and the refused counter by reason', async () => {
    const before = await scrape();
    const base = Date.now() - 3_600_000;
    const rows = [0, 1, 2].map((i) => ({
      timestamp: new Date(base + i * 60_000).toISOString(),
      entity_cuid: battery,
      parameter_id: 'battery_voltage',
      value: 50 + i,
    }));
    const bad = { timestamp: new Date(base).toISOString(), entity_cuid: battery, parameter_id: 'no_such_parameter', value: 1 };
    const first = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, token, { rows: [...rows, bad] });
    expect(first.status).toBe(200);
    expect(first.body.accepted).toBe(3);
    expect(first.body.rejected).toHaveLength(1);
    // Two again (duplicates) and one new.
    const again = await ingest(t.baseUrl, DEMO_CONTROLLER_ID, token, {
      rows: [rows[0], rows[1], { ...rows[2], timestamp: new Date(base + 5 * 60_000).toISOString() }],
    });
    expect(again.body).toMatchObject({ accepted: 1, duplicates: 2 });
    const [{ n }] = await q(`SELECT count(*)::int AS n FROM parameter_log WHERE entity_cuid = $1 AND parameter_id = 'battery_voltage' AND "timestamp" >= $2`, [
      battery,
      new Date(base),
    ]);
    expect(n).toBe(4);

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => total(after, name, labels) - total(before, name, labels);
    expect(moved('portal_ingest_rows_total', { transport: 'http' })).toBe(n);
    expect(moved('portal_ingest_refused_rows_total', { transport: 'http', reason: 'invalid' })).toBe(1);
    expect(moved('portal_ingest_refused_rows_total', { transport: 'http', reason: 'duplicate' })).toBe(2);
    expect(moved('portal_ingest_rows_total', { transport: 'mqtt' })).toBe(0);
    // The reason label is one of the fixed words, never a row's own text.
    for (const s of select(after, 'portal_ingest_refused_rows_total'))
      expect(['invalid', 'duplicate', 'database_refused', 'not_stored']).toContain(s.labels.reason);
  });

  it('the request latency histogram counts each request under its route pattern or tRPC procedure', async () => {
    const live = { name: 'portal_http_request_duration_seconds_count', labels: { method: 'GET', route: '/api/health/live', status_class: '2xx' } };
    const before = total(await scrape(), live.name, live.labels);
    for (let i = 0; i < 3; i++) expect((await fetch(`${t.baseUrl}/api/health/live`)).status).toBe(200);
    const c = new HttpClient(t.baseUrl);
    expect((await c.login('basic@demo.local')).status).toBe(200);
    expect((await c.query('portalNotification.recent', { limit: 5 })).status).toBe(200);
    // A procedure the router does not have is counted, but not under its name.
    expect((await c.query('portalNotification.noSuchThing', {})).status).toBe(404);
    const after = await scrape();
    expect(total(after, live.name, live.labels) - before).toBe(3);
    expect(total(after, 'portal_http_request_duration_seconds_count', { route: 'trpc:portalNotification.recent', status_class: '2xx' })).toBe(1);
    expect(total(after, 'portal_http_request_duration_seconds_count', { route: 'trpc:unknown', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(select(after, 'portal_http_request_duration_seconds_count').some((s) => s.labels.route.includes('noSuchThing'))).toBe(false);
    // Buckets are cumulative and end with +Inf = count.
    const inf = total(after, 'portal_http_request_duration_seconds_bucket', { ...live.labels, le: '+Inf' });
    expect(inf).toBe(total(after, live.name, live.labels));
  });

  it('portal_commands shows a created command under its state, as the database counts it', async () => {
    const installer = new HttpClient(t.baseUrl);
    expect((await installer.login('installer@demo.local')).status).toBe(200);
    const sent = await installer.mutate<any>('controllerCommand.send', {
      controller_id: DEMO_CONTROLLER_ID,
      kind: 'apply_config',
      payload: { controller: { log_level: 'debug' } },
    });
    expect(sent.error).toBeUndefined();
    expect(sent.data.status).toBe('PENDING');
    const counts = await q<{ status: string; n: number }>(`SELECT status::text AS status, count(*)::int AS n FROM controller_command GROUP BY status`);
    const samples = await scrape();
    for (const state of CONTROLLER_COMMAND_STATUSES) {
      expect([state, total(samples, 'portal_commands', { state })]).toEqual([state, counts.find((c) => c.status === state)?.n ?? 0]);
    }
    expect(total(samples, 'portal_commands', { state: 'PENDING' })).toBeGreaterThanOrEqual(1);
  });

  it('portal_live_streams goes to 1 when an SSE stream opens and back to 0 when it closes', async () => {
    expect(total(await scrape(), 'portal_live_streams')).toBe(0);
    const c = new HttpClient(t.baseUrl);
    expect((await c.login('expert@demo.local')).status).toBe(200);
    const stream = await openStream(c, 'portalNotification.onEvent');
    expect(stream.res.status).toBe(200);
    await eventually(async () => total(await scrape(), 'portal_live_streams') === 1, 10_000, 'one open stream');
    await stream.close();
    await eventually(async () => total(await scrape(), 'portal_live_streams') === 0, 10_000, 'no open stream');
  });

  it('portal_outbox_depth reflects a PENDING event, and the oldest age grows from it', async () => {
    const before = await scrape();
    expect(total(before, 'portal_outbox_depth', { kind: 'event' })).toBe(0);
    const farm = await systemByName(t.db.dataSource, DEMO_SYSTEMS.farm);
    await companyByName(t.db.dataSource, DEMO_COMPANY_NAME);
    const trigger = await addTrigger(t.db.dataSource, farm.system_cuid);
    await addEvents(t.db.dataSource, trigger, [eventValue(farm)]);
    await q(`UPDATE notification_trigger_event SET created_at = now() - interval '90 seconds' WHERE trigger_cuid = $1`, [trigger]);
    const after = await scrape();
    expect(total(after, 'portal_outbox_depth', { kind: 'event' })).toBe(1);
    expect(total(after, 'portal_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(90);
    expect(total(after, 'portal_outbox_oldest_age_seconds')).toBeLessThan(3600);
  });

  it('no label carries an id or a user value: a burst of requests with random ids leaves the route labels bounded', async () => {
    const routes = (samples: Sample[]) => new Set(select(samples, 'portal_http_request_duration_seconds_count').map((s) => s.labels.route));
    const before = routes(await scrape());
    const secrets: string[] = [];
    const c = new HttpClient(t.baseUrl);
    expect((await c.login('basic@demo.local')).status).toBe(200);
    for (let i = 0; i < 40; i++) {
      const id = `zz${randomBytes(6).toString('hex')}`;
      secrets.push(id);
      await Promise.all([
        fetch(`${t.baseUrl}/api/trpc/${id}.getList?input=${id}`, { headers: { cookie: c.cookieHeader() } }),
        fetch(`${t.baseUrl}/api/trpc/system.getOne,${id}?batch=1&input={}`, { headers: { cookie: c.cookieHeader() } }),
        fetch(`${t.baseUrl}/api/ingest/${id}/telemetry`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${id}` },
          body: '{}',
        }),
        fetch(`${t.baseUrl}/systems/${id}?q=${id}`),
        fetch(`${t.baseUrl}/api/${id}/${id}`),
        fetch(`${t.baseUrl}/brand/${id}.png`),
        c.query('system.getOne', { id }),
      ]);
    }
    const res = await fetch(`${t.baseUrl}/metrics`);
    const text = await res.text();
    for (const id of secrets) expect(text.includes(id)).toBe(false);
    const after = routes(parsePrometheus(text));
    const added = [...after].filter((r) => !before.has(r));
    // 280 requests with 40 distinct ids: a handful of patterns at most, none per id.
    expect(added.length).toBeLessThanOrEqual(8);
    for (const r of after) expect(r).toMatch(/^(unmatched|trpc:(batch|unknown|[a-zA-Z]+(\.[a-zA-Z]+)*)|\/[^?]*)$/);
  });

  it('without METRICS_TOKEN a request a proxy forwarded is refused (403), a direct local one is served', async () => {
    const forwarded = await fetch(`${t.baseUrl}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(forwarded.status).toBe(403);
    const body = await forwarded.json();
    expect(body.code).toBe('FORBIDDEN');
    expect(JSON.stringify(body)).not.toMatch(/portal_|process_/);
    const standard = await fetch(`${t.baseUrl}/metrics`, { headers: { forwarded: 'for=203.0.113.7' } });
    expect(standard.status).toBe(403);
    expect((await fetch(`${t.baseUrl}/metrics`)).status).toBe(200);
  });
});
