import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordsToCsv } from '../../client/src/kit/csv';
import { historyCsvHeader, historyCsvLines } from '../../shared/alerts/history-csv';
import { inertCell, inertText } from '../../shared/common/spreadsheet-cell';
import { ExportJobsWorker } from '../../server/src/exports/export-jobs.worker';
import { DEMO_CONTROLLER_ID, DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { TelemetryWriter } from '../../server/src/telemetry/telemetry-writer.service';
import { addEvent, addTrigger, eventValue } from '../alerts/alarm-fixtures';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { demoBattery, signIn } from './export-world';

/**
 * The class "no formula in any spreadsheet we write" (docs/security.md): every writer (data export
 * CSV with `,` and with `;`, XLSX, the background job file that schedules also use, the alarm
 * history and the back-office list export the browser builds) × every text field a user or a
 * controller sets that reaches it × each of `= + - @ TAB CR` at the start of the field and after
 * each separator (`,` `;` TAB). The file is then read as every reader would: with each separator,
 * honouring quotes or not, and no cell may start a formula; the text is still there (apostrophes
 * aside), and a number, negative ones too, stays a number.
 */
jest.setTimeout(240_000);

const STARTS = ['=', '+', '-', '@', '\t', '\r'];
const SEPARATORS = [',', ';', '\t'];
const PAYLOADS = STARTS.flatMap((c) => [`${c}HYPERLINK("//e.test")`, ...SEPARATORS.map((s) => `Battery${s}${c}1+1`)]);
const NUMBER = /^ *[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)? *$/;

/** Cells of `text` some reader would evaluate: quote-aware with each separator, and split blindly on every separator and line break. */
function runnableCells(text: string): string[] {
  const bad: string[] = [];
  for (const delimiter of SEPARATORS) {
    const parsed = Papa.parse<string[]>(text, { delimiter, header: false });
    for (const row of parsed.data) for (const cell of row) if (/^ *[=+\-@\t\r]/.test(cell) && !NUMBER.test(cell)) bad.push(cell);
  }
  for (const piece of text.split(/[,;\t\r\n]/)) {
    const bare = piece.replace(/^[ "]+/, '');
    if (/^[=+\-@]/.test(bare) && !NUMBER.test(bare.replace(/"+$/, ''))) bad.push(piece);
  }
  return bad;
}

/** The payload is still readable in the file (only apostrophes were added). */
const holds = (cells: string[], payload: string) => {
  // XML (XLSX) reads a carriage return as a line feed.
  const norm = (s: string) => s.replace(/'/g, '').replace(/\r\n?/g, '\n');
  return cells.some((c) => norm(c).includes(norm(payload)));
};

describe('no formula in any spreadsheet we write (every writer × every field × = + - @ TAB CR at the start and after , ; TAB)', () => {
  let t: TestApp;
  let dir: string;
  const as: Record<string, HttpClient> = {};
  let battery: string;
  let system_cuid: string;
  let template_cuid: string;
  let jobs: ExportJobsWorker;
  const start = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 3 * 86_400_000;
  const end = start + 10 * 60_000;
  const q = <T = any>(sql: string, p?: unknown[]) => t.db.dataSource.query<T[]>(sql, p);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portal-no-formula-'));
    t = await startTestApp({ EXPORT_POLL_MS: '0', EXPORT_DIR: dir, ALERTS_DELIVERY_ENABLED: 'false', ALERTS_TIMER_INTERVAL_MS: '0' });
    Object.assign(as, await signIn(t, ['installer', 'basic']));
    jobs = t.app.get(ExportJobsWorker);
    ({ entity_cuid: battery, system_cuid } = await demoBattery(t));
    // What the controller sends: numbers, negative ones too.
    const rows = [];
    for (let i = 0; i < 10; i++) {
      const ts = new Date(start + i * 60_000);
      rows.push({ seg: 0, row: { index: 2 * i, entity_cuid: battery, parameter_id: 'battery_soc', ts, min: null, max: null, value: -12.5 - i, tz: 'UTC' } });
      rows.push({
        seg: 0,
        row: { index: 2 * i + 1, entity_cuid: battery, parameter_id: 'battery_voltage', ts, min: null, max: null, value: -0.25, tz: 'UTC' },
      });
    }
    await t.app.get(TelemetryWriter).write({ rows, standard: [], states: [] });
    const created = await as.installer.mutate('systemDataExportTemplate.create', {
      data: {
        name: 'Formulas',
        system_cuid,
        config: {
          columns: [
            { entity_cuid: battery, parameter_id: 'battery_soc' },
            { entity_cuid: battery, parameter_id: 'battery_voltage', label: 'x' },
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
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Every text field that reaches a data export's header (device name, parameter description, unit, column label) set to `p`. */
  async function poisonExportFields(p: string) {
    await q(`UPDATE entity SET name = $2 WHERE entity_cuid = $1`, [battery, p]);
    await q(`UPDATE log_parameter SET description = $1 WHERE parameter_id = 'battery_soc'`, [p]);
    await q(`UPDATE unit SET unit = $1 WHERE unit_cuid = (SELECT unit_cuid FROM log_parameter WHERE parameter_id = 'battery_voltage')`, [p]);
    await q(`UPDATE system_data_export_template SET config = jsonb_set(config, '{columns,1,label}', to_jsonb($2::text)) WHERE template_cuid = $1`, [
      template_cuid,
      p,
    ]);
  }

  const range = { template_cuid: '', from: '', to: '', timezone: 'UTC' };
  const streamUrl = (params: Record<string, string>) =>
    `/api/exports/stream?${new URLSearchParams({ ...range, template_cuid, from: new Date(start).toISOString(), to: new Date(end).toISOString(), ...params })}`;

  it.each(PAYLOADS.map((p) => [JSON.stringify(p), p]))('data exports (CSV "," and ";", XLSX, job file) with %s in every header field', async (_name, p) => {
    await poisonExportFields(p);
    for (const decimal of ['.', ',']) {
      const res = await as.basic.request('GET', streamUrl({ decimal }));
      expect(res.status).toBe(200);
      expect(runnableCells(res.text)).toEqual([]);
      const rows = Papa.parse<string[]>(res.text, { delimiter: decimal === ',' ? ';' : ',' }).data.filter((r) => r.length > 1);
      expect(holds(rows[0], p)).toBe(true);
      // the values stay numbers: negative, with the chosen decimal mark, unquoted
      expect(rows[1].slice(1)).toEqual(decimal === ',' ? ['-12,5', '-0,25'] : ['-12.5', '-0.25']);
    }
    const started = await as.basic.mutate('exportJob.start', { template_cuid, from: new Date(start), to: new Date(end), timezone: 'UTC', decimal: ',' });
    expect(started.status).toBe(200);
    await jobs.tick();
    const job = (await as.basic.query('exportJob.get', { id: started.data.id })).data;
    expect(job.status).toBe('DONE');
    const file = await as.basic.request('GET', job.download_url);
    expect(runnableCells(file.text)).toEqual([]);

    const xlsx = await fetch(t.baseUrl + streamUrl({ format: 'xlsx' }), { headers: { cookie: as.basic.cookieHeader() } });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as never);
    const sheet = wb.worksheets[0];
    const cells: unknown[] = [];
    sheet.eachRow((row) => row.eachCell((c) => void cells.push(c.value)));
    expect(cells.filter((v) => typeof v === 'object' && v !== null)).toEqual([]); // no formula cell
    const texts = cells.filter((v): v is string => typeof v === 'string');
    expect(runnableCells(texts.map((s) => JSON.stringify(s)).join('\n'))).toEqual([]);
    expect(holds(texts, p)).toBe(true);
    expect(sheet.getRow(2).getCell(2).value).toBe(-12.5);
  });

  it('the alarm history CSV (system, trigger, message and value of every event) with every payload', async () => {
    const [farm] = await q<{ system_cuid: string; name: string }>(`SELECT system_cuid, name FROM system WHERE name = $1`, [DEMO_SYSTEMS.farm]);
    const at = new Date('2026-11-20T01:00:00Z').getTime();
    for (const [i, p] of PAYLOADS.entries()) {
      const trigger = await addTrigger(t.db.dataSource, farm.system_cuid, { name: p, message: p });
      await addEvent(t.db.dataSource, trigger, eventValue('TRIGGERED', new Date(at + i * 60_000), -3.5, { ...farm, name: p }), { message: p });
    }
    let csv = historyCsvHeader();
    for (let page = 1; ; page++) {
      const r = await as.basic.query('alarm.history', { filter: { system_cuid: farm.system_cuid }, pagination: { page, perPage: 20 } });
      expect(r.status).toBe(200);
      csv += historyCsvLines(r.data.data);
      if (r.data.data.length < 20) break;
    }
    expect(runnableCells(csv)).toEqual([]);
    const rows = Papa.parse<string[]>(csv, { delimiter: ',' })
      .data.filter((r) => r.length > 1)
      .slice(1);
    expect(rows).toHaveLength(PAYLOADS.length);
    for (const p of PAYLOADS) expect(rows.some((r) => holds(r, p))).toBe(true);
    expect(rows.every((r) => r[7] === '-3.5')).toBe(true);
  });

  it('the back-office list export (every field of systems, devices and controllers) with every payload', async () => {
    const list = { pagination: { page: 1, perPage: 1000 }, sort: { field: 'id', order: 'ASC' }, filter: {} };
    for (const p of PAYLOADS) {
      await q(`UPDATE entity SET name = $1`, [p]);
      await q(`UPDATE system SET name = $1 WHERE system_cuid = $2`, [p, system_cuid]);
      await q(`UPDATE controller SET name = $1 WHERE controller_id = $2`, [p, DEMO_CONTROLLER_ID]);
      for (const resource of ['entity', 'system', 'controller']) {
        const r = await as.installer.query(`${resource}.getList`, list);
        expect(r.status).toBe(200);
        const csv = recordsToCsv(r.data.data);
        expect(runnableCells(csv)).toEqual([]);
        expect(holds(Papa.parse<string[]>(csv, { delimiter: ',' }).data.flat(), p)).toBe(true);
      }
    }
    // Every field, whatever its name or type: the browser's writer has no per-field rule.
    const record = Object.fromEntries(PAYLOADS.map((p, i) => [`field_${i}`, p]));
    const csv = recordsToCsv([{ ...record, lat: -1.25, count: -3, ok: false }]);
    expect(runnableCells(csv)).toEqual([]);
    const [, row] = Papa.parse<string[]>(csv, { delimiter: ',' }).data;
    expect(row.slice(-3)).toEqual(['-1.25', '-3', 'false']);
  });

  it('the shared rule itself: plain text and numbers unchanged, every risky piece prefixed', () => {
    expect(inertText('Battery bank [V]')).toBe('Battery bank [V]');
    expect(inertText('-12.5')).toBe('-12.5');
    expect(inertText('-3,2')).toBe('-3,2');
    expect(inertText('Battery;=1+1')).toBe("Battery;'=1+1");
    expect(inertText('=1+1')).toBe("'=1+1");
    expect(inertText('\t=1')).toBe("'\t'=1");
    expect(inertText('Battery;\t1+1')).toBe("Battery;'\t1+1");
    expect(inertCell(-4)).toBe(-4);
    expect(inertCell({ f: '=1' })).toBe('{"f":"=1"}');
  });
});
