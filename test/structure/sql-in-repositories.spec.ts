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

/**
 * Files that still hold SQL outside a repository, with how many statements: issue 25 moves them
 * out. The list only shrinks: a file with more SQL than listed fails, and so does one with less
 * (lower its number or remove it, so a moved statement cannot come back unseen).
 */
const NOT_YET_MOVED: Record<string, number> = {
  'server/src/accounts/account-links.ts': 5,
  'server/src/accounts/accounts.service.ts': 4,
  'server/src/accounts/reset-throttle.ts': 5,
  'server/src/auth/local.strategy.ts': 1,
  'server/src/auth/login-throttle.ts': 7,
  'server/src/auth/membership-rows.ts': 1,
  'server/src/auth/password-change-brake.ts': 4,
  'server/src/auth/session.service.ts': 7,
  'server/src/trpc/own-session.ts': 1,
};

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
    const unexpected = [...byFile].filter(([file]) => !(file in NOT_YET_MOVED)).map(([, v]) => `${v.first} (${v.count} statements)`);
    expect(unexpected).toEqual([]);
  });

  it('the files not yet moved hold exactly the SQL listed (the list only shrinks)', () => {
    const actual = Object.fromEntries([...byFile].filter(([file]) => file in NOT_YET_MOVED).map(([file, v]) => [file, v.count]));
    expect(actual).toEqual(NOT_YET_MOVED);
  });
});
