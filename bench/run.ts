import { type BenchContext, type FigureResult } from './lib';
import { loginJsFigure, loginTtiFigure, shellJsFigure } from './figures/frontend';
import { alertEvalFigure, alertLatencyFigure, deliveryFigure } from './figures/alerts';
import { commandBacklogFigure, commandRttFigure } from './figures/commands';
import { exportFigure } from './figures/export';
import { fairnessFigures } from './figures/fairness';
import { ingestFigure } from './figures/ingest';
import { listFigure } from './figures/list';
import { idleTabFigures, slowLinkFigures } from './figures/network';
import { overviewFigures } from './figures/overview';
import { seriesFigure } from './figures/series';
import { ingest2xFigures, list2xFigures, liveTabsFigure } from './figures/scale';
import { sessionFigure } from './figures/session';

/**
 * `npm run bench` runs every figure; `npm run bench -- <name> [...]` only those named.
 * BENCH_DATABASE_URL: a PostgreSQL server (each figure creates and drops its own database).
 * BENCH_ROUNDS (default 3) and BENCH_SECONDS (default 20) set the medians' rounds and length.
 */
const FIGURES: Record<string, (ctx: BenchContext) => Promise<FigureResult | FigureResult[]>> = {
  session: sessionFigure,
  login_js: loginJsFigure,
  shell_js: shellJsFigure,
  login_tti: loginTtiFigure,
  // Three lines: slow_link_login, slow_link_first_screen, slow_link_second_visit (400 kbit/s, 400 ms).
  slow_link: slowLinkFigures,
  // Two lines: idle_tab (KB per minute) and idle_tab_requests.
  idle_tab: idleTabFigures,
  ingest: ingestFigure,
  series: seriesFigure,
  list: listFigure,
  // Two lines: `overview` (the shared overview) and `overview_cold` (OVERVIEW_CACHE_MS=0).
  overview: overviewFigures,
  alert_latency: alertLatencyFigure,
  alert_eval: alertEvalFigure,
  delivery: deliveryFigure,
  command_rtt: commandRttFigure,
  command_backlog: commandBacklogFigure,
  export: exportFigure,
  // Issue 24: two lines, `fairness` (another company's ingest p95) and `fairness_export` (its 1-day export), flooded / quiet.
  fairness: fairnessFigures,
  // Issue 15, through HAProxy: two lines each, the one-instance figure (`list_1x`, `ingest_1x`) and
  // the two-instance one with it as baseline (ratio = 2x / 1x).
  list_2x: list2xFigures,
  ingest_2x: ingest2xFigures,
  live_tabs: liveTabsFigure,
};

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const unknown = wanted.filter((w) => !FIGURES[w]);
  if (unknown.length) {
    console.error(`Unknown figure(s): ${unknown.join(', ')}. Known: ${Object.keys(FIGURES).join(', ')}`);
    process.exit(2);
  }
  const ctx: BenchContext = {
    serverUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    rounds: Number(process.env.BENCH_ROUNDS ?? 3),
    durationSeconds: Number(process.env.BENCH_SECONDS ?? 20),
    log: (m) => console.log(`  ${m}`),
  };
  const results: FigureResult[] = [];
  for (const name of wanted.length ? wanted : Object.keys(FIGURES)) {
    console.log(`== ${name}`);
    const r = await FIGURES[name](ctx);
    results.push(...(Array.isArray(r) ? r : [r]));
  }
  const rows = results.map((r) => [
    r.figure,
    `${r.value} ${r.unit}`,
    r.p99_ms === undefined ? '' : `${r.p99_ms} ms`,
    r.baseline === undefined ? '' : String(r.baseline),
    r.ratio === undefined ? '' : String(r.ratio),
    r.notes ?? '',
  ]);
  const head = ['figure', 'median', 'p99', 'baseline', 'ratio', 'how'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(`\n${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const row of rows) console.log(line(row));
  console.log('');
  for (const r of results) {
    const { notes: _notes, ...json } = r;
    console.log(JSON.stringify(json));
  }
}

main().catch((e: unknown) => {
  console.error('bench failed:', e);
  process.exit(1);
});
