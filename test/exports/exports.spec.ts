import ExcelJS from 'exceljs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExportJobsWorker } from '../../server/src/exports/export-jobs.worker';
import { TelemetryWriter } from '../../server/src/telemetry/telemetry-writer.service';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { decoded, rawGet } from '../factories/raw-http';
import { decodeMail, SmtpPeer } from '../factories/smtp-peer';
import { demoBattery, signIn } from './export-world';

jest.setTimeout(180_000);

const MIN = 60_000;
const HOUR = 60 * MIN;
const ZONE = 'Europe/Paris';

/** Data exports over HTTP: the file equals the database, in the chosen zone and separators; scoping; jobs; ranges; schedules. */
describe('data exports', () => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let dir: string;
  const as: Record<string, HttpClient> = {};
  let battery: string;
  let system_cuid: string;
  let template_cuid: string;
  let jobs: ExportJobsWorker;
  // Three hours of one-minute samples, well in the past; the voltage is missing every 7th minute.
  const start = Math.floor(Date.now() / (24 * HOUR)) * 24 * HOUR - 5 * 24 * HOUR + 9 * HOUR;
  const end = start + 3 * HOUR;
  const q = <T = any>(sql: string, p?: unknown[]) => t.db.dataSource.query<T[]>(sql, p);

  beforeAll(async () => {
    smtp = await SmtpPeer.start();
    dir = await mkdtemp(join(tmpdir(), 'portal-exports-'));
    // On PostgreSQL with DATABASE_URL set, as a deployment runs: export threads read on their own
    // connections and mark their jobs DONE themselves (liveOverPostgres sets it).
    t = await startTestApp({ EXPORT_POLL_MS: '0', EXPORT_DIR: dir, SMTP_URL: smtp.url, PUBLIC_URL: 'http://portal.example.test' }, { liveOverPostgres: true });
    Object.assign(as, await signIn(t, ['installer', 'basic', 'other']));
    jobs = t.app.get(ExportJobsWorker);
    ({ entity_cuid: battery, system_cuid } = await demoBattery(t));
    const rows = [];
    let index = 0;
    for (let ts = start; ts < end; ts += MIN) {
      const m = (ts - start) / MIN;
      rows.push({
        seg: 0,
        row: {
          index: index++,
          entity_cuid: battery,
          parameter_id: 'battery_soc',
          ts: new Date(ts),
          min: null,
          max: null,
          value: 40 + (m % 50) + 0.25,
          tz: ZONE,
        },
      });
      if (m % 7 !== 3)
        rows.push({
          seg: 0,
          row: {
            index: index++,
            entity_cuid: battery,
            parameter_id: 'battery_voltage',
            ts: new Date(ts),
            min: null,
            max: null,
            value: 51.5 + m / 100,
            tz: ZONE,
          },
        });
    }
    await t.app.get(TelemetryWriter).write({ rows, standard: [], states: [] });
    const created = await as.installer.mutate('systemDataExportTemplate.create', {
      data: {
        name: 'Battery',
        system_cuid,
        config: {
          columns: [
            { entity_cuid: battery, parameter_id: 'battery_soc' },
            { entity_cuid: battery, parameter_id: 'battery_voltage', label: 'Volts' },
          ],
          resolution: 'raw',
        },
      },
    });
    expect(created.status).toBe(200);
    template_cuid = created.data.data.template_cuid;
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** The rows as the database has them: local time in ZONE, soc, voltage (null when missing). */
  const dbRows = async (from: number, to: number, zone = ZONE) =>
    (
      await q<{ t: string; soc: number | null; v: number | null }>(
        `SELECT to_char(ts AT TIME ZONE $4, 'YYYY-MM-DD HH24:MI:SS') AS t,
              max(value) FILTER (WHERE parameter_id = 'battery_soc') AS soc, max(value) FILTER (WHERE parameter_id = 'battery_voltage') AS v
         FROM (SELECT "timestamp" AS ts, parameter_id, value FROM parameter_log WHERE entity_cuid = $1 AND "timestamp" >= $2 AND "timestamp" < $3) x
        GROUP BY ts ORDER BY ts`,
        [battery, new Date(from), new Date(to), zone],
      )
    ).map((r) => [r.t, r.soc === null ? '' : String(r.soc), r.v === null ? '' : String(r.v)]);

  const streamUrl = (params: Record<string, string>) => `/api/exports/stream?${new URLSearchParams({ template_cuid, ...params })}`;
  const parse = (text: string, delimiter: string) =>
    text
      .trimEnd()
      .split('\n')
      .map((l) => l.split(delimiter));

  it('streams a CSV whose rows are the database rows, timestamps in the chosen zone, header with labels and units', async () => {
    const res = await as.basic.request('GET', streamUrl({ from: new Date(start).toISOString(), to: new Date(end).toISOString(), timezone: ZONE }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=".*\.csv"/);
    const [header, ...rows] = parse(res.text, ',');
    expect(header).toEqual([`Time (${ZONE})`, expect.stringMatching(/Battery state of charge \[%\]$/), 'Volts [V]']);
    const want = await dbRows(start, end);
    expect(want.length).toBe(180);
    expect(rows).toEqual(want);
    expect(rows.some((r) => r[2] === '')).toBe(true);
    // 09:00 UTC is 10:00 or 11:00 in Paris, never the UTC clock time
    expect(rows[0][0]).not.toBe(new Date(start).toISOString().replace('T', ' ').slice(0, 19));
  });

  it('sends the CSV stream compressed to a client that accepts it, the same CSV once decoded', async () => {
    const url = t.baseUrl + streamUrl({ from: new Date(start).toISOString(), to: new Date(end).toISOString(), timezone: ZONE });
    const plain = await rawGet(url, { cookie: as.basic.cookieHeader() });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const encoding of ['br', 'gzip']) {
      const res = await rawGet(url, { cookie: as.basic.cookieHeader(), 'accept-encoding': encoding });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.body.length).toBeLessThan(plain.body.length / 2);
      expect(decoded(res).toString('utf8')).toBe(plain.body.toString('utf8'));
    }
  });

  it('writes a comma decimal with ";" between fields', async () => {
    const res = await as.basic.request(
      'GET',
      streamUrl({ from: new Date(start).toISOString(), to: new Date(end).toISOString(), timezone: ZONE, decimal: ',' }),
    );
    expect(res.status).toBe(200);
    const [, ...rows] = parse(res.text, ';');
    const want = (await dbRows(start, end)).map((r) => r.map((c, i) => (i ? c.replace('.', ',') : c)));
    expect(rows).toEqual(want);
    expect(rows[0][1]).toMatch(/^\d+,25$/);
  });

  it('writes an XLSX that exceljs reads back with the same cells (numbers as numbers)', async () => {
    const res = await fetch(t.baseUrl + streamUrl({ from: new Date(start).toISOString(), to: new Date(end).toISOString(), timezone: ZONE, format: 'xlsx' }), {
      headers: { cookie: as.basic.cookieHeader() },
    });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const sheet = wb.worksheets[0];
    const cells: unknown[][] = [];
    sheet.eachRow((row) => cells.push((row.values as unknown[]).slice(1)));
    const want = await dbRows(start, end);
    expect(cells.length).toBe(want.length + 1);
    expect(cells[0][0]).toBe(`Time (${ZONE})`);
    cells.slice(1).forEach((row, i) => {
      const w = want[i];
      expect([row[0], row[1], row[2] ?? '']).toEqual([w[0], Number(w[1]), w[2] === '' ? '' : Number(w[2])]);
    });
  });

  it('answers a range without data with the header only', async () => {
    const res = await as.basic.request('GET', streamUrl({ from: new Date(start - 48 * HOUR).toISOString(), to: new Date(start - 24 * HOUR).toISOString() }));
    expect(res.status).toBe(200);
    expect(parse(res.text, ',')).toHaveLength(1);
  });

  it('refuses a bad template or request with a field error on the exact path', async () => {
    const bad = await as.installer.mutate('systemDataExportTemplate.create', {
      data: {
        name: 'Bad',
        system_cuid,
        config: {
          columns: [
            { entity_cuid: battery, parameter_id: 'battery_soc' },
            { entity_cuid: battery, parameter_id: 'pv_power' },
          ],
        },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.error?.data.fieldErrors).toEqual([{ path: 'data.config.columns.1.parameter_id', message: expect.any(String) }]);
    const [{ entity_cuid: elsewhere }] = await q(
      `SELECT e.entity_cuid FROM entity e LEFT JOIN controller c ON c.controller_id = e.controller_id
      WHERE COALESCE(e.system_cuid, c.system_cuid) <> $1 LIMIT 1`,
      [system_cuid],
    ).then((r) => (r.length ? r : [{ entity_cuid: 'nosuchdevice' }]));
    const foreign = await as.installer.mutate('systemDataExportTemplate.create', {
      data: {
        name: 'Bad',
        system_cuid,
        config: {
          columns: [
            { entity_cuid: battery, parameter_id: 'battery_soc' },
            { entity_cuid: battery, parameter_id: 'battery_soc' },
            { entity_cuid: elsewhere, parameter_id: 'battery_soc' },
          ],
        },
      },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.error?.data.fieldErrors?.map((e) => e.path)).toEqual(['data.config.columns.2.entity_cuid']);
    const shape = await as.installer.mutate('systemDataExportTemplate.create', {
      data: { name: 'Bad', system_cuid, config: { columns: [{ entity_cuid: battery }], resolution: '2m' } },
    });
    expect(shape.status).toBe(400);
    expect(shape.error?.data.fieldErrors?.map((e) => e.path).sort()).toEqual(['data.config.columns.0.parameter_id', 'data.config.resolution']);
    const range = await as.basic.request('GET', streamUrl({ from: '2020-01-01T00:00:00Z', to: '2022-01-01T00:00:00Z' }));
    expect(range.status).toBe(400);
    expect(range.body.fieldErrors).toEqual([{ path: 'to', message: expect.stringMatching(/at most/) }]);
    const nonsense = await as.basic.request('GET', streamUrl({ from: 'yesterday', to: new Date(end).toISOString() }));
    expect(nonsense.status).toBe(400);
    expect(nonsense.body.fieldErrors.map((e: any) => e.path)).toEqual(['from']);
  });

  it('shows a user of another company nothing: template, stream, job, file → 404, and an empty list', async () => {
    const started = await as.basic.mutate('exportJob.start', { template_cuid, from: new Date(start), to: new Date(end), timezone: ZONE });
    expect(started.status).toBe(200);
    const id = started.data.id;
    await jobs.tick();
    expect((await as.basic.query('exportJob.get', { id })).data).toMatchObject({ status: 'DONE' });
    const stream = await as.other.request('GET', streamUrl({ from: new Date(start).toISOString(), to: new Date(end).toISOString() }));
    expect([stream.status, stream.body.code]).toEqual([404, 'NOT_FOUND']);
    const missing = await as.other.request(
      'GET',
      `/api/exports/stream?${new URLSearchParams({ template_cuid: 'nosuchtemplate', from: new Date(start).toISOString(), to: new Date(end).toISOString() })}`,
    );
    expect({ status: missing.status, body: missing.body }).toEqual({ status: stream.status, body: { ...stream.body } });
    expect((await as.other.mutate('exportJob.start', { template_cuid, from: new Date(start), to: new Date(end) })).status).toBe(404);
    expect((await as.other.query('exportJob.get', { id })).status).toBe(404);
    expect((await as.other.mutate('exportJob.cancel', { id })).status).toBe(404);
    expect((await as.other.request('GET', `/api/exports/jobs/${id}/file`)).status).toBe(404);
    expect((await as.installer.request('GET', `/api/exports/jobs/${id}/file`)).status).toBe(404); // not the owner
    expect((await as.other.query('exportJob.list')).data).toEqual({ data: [] });
    expect((await as.basic.query('exportJob.list')).data.data.map((j: any) => j.id)).toContain(id);
    expect((await new HttpClient(t.baseUrl).request('GET', `/api/exports/jobs/${id}/file`)).status).toBe(401);
  });

  it('runs a background job to a file that downloads whole and in ranges (206, resumable, If-Range)', async () => {
    const started = await as.basic.mutate('exportJob.start', { template_cuid, from: new Date(start), to: new Date(end), timezone: ZONE, decimal: ',' });
    const id = started.data.id;
    expect(started.data.status).toBe('QUEUED');
    await jobs.tick();
    const job = (await as.basic.query('exportJob.get', { id })).data;
    expect(job).toMatchObject({ status: 'DONE', rows_done: 180, rows_total: 180, download_url: `/api/exports/jobs/${id}/file` });
    // Asked as a browser asks (br accepted): a file that offers ranges is sent as stored, never
    // compressed on the fly, so a resumed download's offsets are offsets of the same bytes.
    const headers = { cookie: as.basic.cookieHeader(), 'accept-encoding': 'gzip, deflate, br' };
    const whole = await fetch(t.baseUrl + job.download_url, { headers });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-encoding')).toBeNull();
    expect(whole.headers.get('content-length')).toBe(String(job.bytes));
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.length).toBe(job.bytes);
    const [, ...rows] = parse(bytes.toString('utf8'), ';');
    expect(rows).toEqual((await dbRows(start, end)).map((r) => r.map((c, i) => (i ? c.replace('.', ',') : c))));
    const etag = whole.headers.get('etag')!;
    // a download cut after 1000 bytes, resumed from there
    const first = await fetch(t.baseUrl + job.download_url, { headers: { ...headers, range: 'bytes=0-999' } });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-encoding')).toBeNull();
    expect(first.headers.get('content-range')).toBe(`bytes 0-999/${bytes.length}`);
    const a = Buffer.from(await first.arrayBuffer());
    const rest = await fetch(t.baseUrl + job.download_url, { headers: { ...headers, range: 'bytes=1000-', 'if-range': etag } });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-encoding')).toBeNull();
    const b = Buffer.from(await rest.arrayBuffer());
    expect(Buffer.concat([a, b]).equals(bytes)).toBe(true);
    const stale = await fetch(t.baseUrl + job.download_url, { headers: { cookie: as.basic.cookieHeader(), range: 'bytes=1000-', 'if-range': '"other"' } });
    expect(stale.status).toBe(200);
    expect(Buffer.from(await stale.arrayBuffer()).equals(bytes)).toBe(true);
    const beyond = await fetch(t.baseUrl + job.download_url, { headers: { cookie: as.basic.cookieHeader(), range: `bytes=${bytes.length + 5}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
  });

  it('a job whose worker died is taken again once its lease runs out', async () => {
    const id = (await as.basic.mutate('exportJob.start', { template_cuid, from: new Date(start), to: new Date(end) })).data.id;
    // A worker claims the job and dies before writing anything.
    const claimed = await jobs.claim();
    expect(claimed?.id).toBe(id);
    await q(`UPDATE export_job SET worker = 'dead-worker' WHERE id = $1`, [id]);
    await jobs.tick();
    expect((await as.basic.query('exportJob.get', { id })).data).toMatchObject({ status: 'RUNNING', rows_done: 0 });
    await q(`UPDATE export_job SET lease_until = now() - interval '1 second' WHERE id = $1`, [id]);
    await jobs.tick();
    expect((await as.basic.query('exportJob.get', { id })).data).toMatchObject({ status: 'DONE', rows_done: 180 });
    expect((await q(`SELECT attempts FROM export_job WHERE id = $1`, [id]))[0].attempts).toBe(2);
  });

  it('a job taken by another worker while its file is written is not marked DONE by the first, and its file is removed (the thread records it on PostgreSQL, the worker on the embedded database)', async () => {
    const id = (await as.basic.mutate('exportJob.start', { template_cuid, from: new Date(start), to: new Date(end) })).data.id;
    const claimed = await jobs.claim();
    expect(claimed?.id).toBe(id);
    // Its lease ran out and another worker took it, while this one still writes the file.
    await q(`UPDATE export_job SET worker = 'other-worker' WHERE id = $1`, [id]);
    await jobs.run(claimed!);
    expect((await q(`SELECT status, worker, finished_at FROM export_job WHERE id = $1`, [id]))[0]).toEqual({
      status: 'RUNNING',
      worker: 'other-worker',
      finished_at: null,
    });
    expect((await readdir(dir)).filter((f) => f.startsWith(id))).toEqual([]);
    await q(`UPDATE export_job SET status = 'FAILED', error = 'Cancelled' WHERE id = $1`, [id]);
  });

  it('a scheduled template makes a job for the previous day when due and mails a link that downloads the file', async () => {
    // A verified, active email channel of the system's company, and an unverified one the template may not name.
    const channel_cuid = 'exportchannel1';
    await q(
      `INSERT INTO notification_channel (channel_cuid, source, status, company_cuid) SELECT $1, 'EMAIL', 'ACTIVE', company_cuid FROM system WHERE system_cuid = $2`,
      [channel_cuid, system_cuid],
    );
    await q(
      `INSERT INTO email_notification_channel (email_channel_cuid, channel_cuid, email, verified_at) VALUES ('exportmail1', $1, 'reports@demo.local', now())`,
      [channel_cuid],
    );
    await q(
      `INSERT INTO notification_channel (channel_cuid, source, status, company_cuid) SELECT 'exportchannel2', 'EMAIL', 'ACTIVE', company_cuid FROM system WHERE system_cuid = $1`,
      [system_cuid],
    );
    await q(
      `INSERT INTO email_notification_channel (email_channel_cuid, channel_cuid, email, verified_at) VALUES ('exportmail2', 'exportchannel2', 'unverified@demo.local', NULL)`,
    );
    const unverified = await as.installer.mutate('systemDataExportTemplate.update', {
      id: template_cuid,
      data: {
        config: {
          columns: [{ entity_cuid: battery, parameter_id: 'battery_soc' }],
          schedule: { frequency: 'daily', recipients: [channel_cuid, 'exportchannel2'] },
        },
      },
      previousData: {},
    });
    expect(unverified.error?.data.fieldErrors?.map((e) => e.path)).toEqual(['data.config.schedule.recipients.1']);
    const upd = await as.installer.mutate('systemDataExportTemplate.update', {
      id: template_cuid,
      data: {
        config: {
          columns: [{ entity_cuid: battery, parameter_id: 'battery_soc' }],
          resolution: 'raw',
          schedule: { frequency: 'daily', recipients: [channel_cuid] },
        },
      },
      previousData: {},
    });
    expect(upd.status).toBe(200);
    await jobs.tick();
    const [sched] = await q(`SELECT next_run_at FROM export_schedule WHERE template_cuid = $1`, [template_cuid]);
    expect(new Date(sched.next_run_at).getTime()).toBeGreaterThan(Date.now());
    // Due: the day of the samples ends (midnight in the system's zone after them).
    const [{ tz }] = await q(`SELECT timezone AS tz FROM system WHERE system_cuid = $1`, [system_cuid]);
    const [{ due }] = await q(`SELECT (date_trunc('day', $1::timestamptz, $2) AT TIME ZONE $2 + interval '1 day') AT TIME ZONE $2 AS due`, [
      new Date(start),
      tz,
    ]);
    await q(`UPDATE export_schedule SET next_run_at = $2 WHERE template_cuid = $1`, [template_cuid, due]);
    await jobs.tick();
    const mail = await smtp.waitFor(1);
    expect(mail.to).toEqual(['reports@demo.local']);
    const link = /https?:\/\/[^\s"<>]+\/api\/exports\/jobs\/[a-z0-9]+\/file/.exec(decodeMail(mail.raw))?.[0];
    expect(link).toMatch(/^http:\/\/portal\.example\.test\/api\/exports\/jobs\//);
    const res = await as.basic.request('GET', new URL(link!).pathname);
    expect(res.status).toBe(200);
    const [, ...rows] = parse(res.text, ',');
    // every sample of that local day (all 180 lie in it) in the system's zone, only the soc column
    const [{ from }] = await q(`SELECT ($1::timestamptz - interval '1 day') AS from`, [due]);
    expect(rows).toEqual((await dbRows(new Date(from).getTime(), new Date(due).getTime(), tz)).map((r) => [r[0], r[1]]));
    expect(rows.length).toBe(180);
    expect((await as.other.request('GET', new URL(link!).pathname)).status).toBe(404);
    // not twice: the next run is tomorrow or later
    await jobs.tick();
    expect(smtp.messages.length).toBe(1);
  });
});
