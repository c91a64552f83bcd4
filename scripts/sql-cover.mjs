#!/usr/bin/env node
/**
 * Chooses the PostgreSQL step's test files by the SQL they send (see jest.postgres.config.js).
 *
 *   SQL_TRACE_DIR=/tmp/sql TEST_DATABASE_URL=… npx jest -c jest.postgres.config.js --all-files
 *   node scripts/sql-cover.mjs /tmp/sql [--write]
 *
 * Each trace file (written by test/factories/database.ts when SQL_TRACE_DIR is set) lists the
 * distinct statements the product's code sent during one test file, placeholders and whitespace
 * folded. The files the PostgreSQL step always runs (the repositories' medium tests and every file
 * that asks for PostgreSQL itself) cover most statements; this adds, greedily, the fewest further
 * files that send every statement left, and prints what each adds. `--write` saves the list in
 * test/postgres-cover.json, which jest.postgres.config.js reads.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/sql-cover.mjs TRACE_DIR [--write]');
  process.exit(2);
}
const { always } = createRequire(import.meta.url)(join(ROOT, 'test/postgres-selection.js'));
const traces = readdirSync(dir)
  .filter((f) => f.endsWith('.sql'))
  .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
const isAlways = (p) => always.includes(p);

const covered = new Set(traces.filter((t) => isAlways(t.testPath)).flatMap((t) => t.sql));
const all = new Set(traces.flatMap((t) => t.sql));
const candidates = traces.filter((t) => !isAlways(t.testPath));
const chosen = [];
for (;;) {
  let best;
  let bestGain = 0;
  for (const t of candidates) {
    const gain = t.sql.filter((s) => !covered.has(s)).length;
    if (gain > bestGain) [best, bestGain] = [t, gain];
  }
  if (!best) break;
  chosen.push({ file: best.testPath, adds: bestGain });
  for (const s of best.sql) covered.add(s);
}
console.log(`statements: ${all.size}; covered by the files always run: ${all.size - chosen.reduce((n, c) => n + c.adds, 0)}`);
for (const c of chosen) console.log(`  + ${c.file} (${c.adds} more)`);
console.log(`files: ${always.length} always + ${chosen.length} for the rest, of ${traces.length} traced`);
if (process.argv.includes('--write')) {
  const files = chosen.map((c) => c.file).sort();
  writeFileSync(join(ROOT, 'test/postgres-cover.json'), JSON.stringify({ files }, null, 2) + '\n');
  console.log('written: test/postgres-cover.json');
}
