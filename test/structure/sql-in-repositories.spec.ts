import { join } from 'node:path';
import { sqlTexts } from './sql-scan';

/**
 * SQL lives in repositories (CONVENTIONS.md 19): a `<thing>.repository.ts` takes the caller (or a
 * background job's identity) first and holds every statement; services keep the rules, workers the
 * loops. The class checked: every string or template literal of server/src that reads as a SQL
 * statement, wherever it is. Outside repositories, only the places below may hold SQL.
 */
const ROOT = join(__dirname, '..', '..');

/** Places that hold SQL by design, with why. */
const BY_DESIGN: [RegExp, string][] = [
  [/\.repository\.ts$/, 'repositories: where SQL belongs'],
  [/^server\/src\/database\//, 'the database layer itself: migrations, the data source, LISTEN/NOTIFY signals, shared batch splitting'],
  [/^server\/src\/tenancy\/visibility\.ts$/, 'tenancy: the one module producing the "what may this caller see" SQL fragments every query shares'],
  [/^server\/src\/crud\/sql-builder\.ts$/, 'the CRUD query builder: composes the generated list/get/count queries from a resource definition'],
];

describe('SQL only in repositories', () => {
  const found = sqlTexts(ROOT);
  const byFile = new Map<string, { count: number; first: string }>();
  for (const s of found) {
    if (BY_DESIGN.some(([re]) => re.test(s.file))) continue;
    const seen = byFile.get(s.file);
    byFile.set(s.file, { count: (seen?.count ?? 0) + 1, first: seen?.first ?? `${s.file}:${s.line} ${s.text}` });
  }

  it('the scan finds SQL where it is (repositories, the database layer)', () => {
    const files = new Set(found.map((s) => s.file));
    expect([...files].filter((f) => f.endsWith('.repository.ts')).length).toBeGreaterThan(10);
    expect(files.has('server/src/database/shared-signals.ts')).toBe(true);
  });

  it('no SQL outside repositories but the places named here', () => {
    const unexpected = [...byFile].map(([, v]) => `${v.first} (${v.count} statements)`);
    expect(unexpected).toEqual([]);
  });
});
