import { SqlParams } from '../database/sql-params';
import type { Actor } from '../../../shared/access/policy';
import { scopeOf } from '../access/scope';
import {
  ownedOrSharedSql,
  ownedOrVisibleSystemSql,
  systemSharesSql,
  visibleCompanySql,
  visibleShareSql,
  visibleSystemIdSql,
  visibleSystemSql,
} from './visibility';

const A = 'company-a';
const B = 'company-b';
const C = 'company-c';
const member = (user_cuid: string, ...companies: [string, number][]): Actor => ({
  user_cuid,
  memberships: companies.map(([company_cuid, level]) => ({ company_cuid, level, is_company_admin: false })),
});
const superuser = member('su', [C, 0]);
const ofA = member('a', [A, 1]);
const ofB = member('b', [B, 3]);
const ofC = member('c', [C, 2]);
const nobody = member('none');

describe('tenancy SQL (spec §6), as text', () => {
  it('a superuser sees everything: TRUE, and no parameter is added', () => {
    const values: unknown[] = [];
    const p = new SqlParams(values);
    for (const sql of [
      visibleCompanySql(superuser, p, 't.company_cuid'),
      visibleCompanySql(superuser, p, 't.company_cuid', { orGlobal: true }),
      visibleSystemSql(superuser, p),
      visibleSystemIdSql(superuser, p, 't.system_cuid'),
      ownedOrSharedSql(superuser, p, { company: 't.company_cuid', system: 't.system_cuid' }),
      ownedOrVisibleSystemSql(superuser, p, { company: 't.company_cuid', system: 't.system_cuid' }),
      visibleShareSql(superuser, p),
    ]) {
      expect(sql).toBe('TRUE');
    }
    expect(values).toEqual([]);
  });

  it('the caller’s companies are one parameter, never inlined, reused within one query', () => {
    const values: unknown[] = ['first'];
    const p = new SqlParams(values);
    const scope = scopeOf(ofA);
    const sql = `${visibleSystemSql(scope, p)} AND ${visibleCompanySql(scope, p, 't.company_cuid')}`;
    expect(values).toEqual(['first', [A]]);
    expect(sql).not.toContain(A);
    expect(sql.match(/\$2::varchar\[\]/g)?.length).toBe(3);
  });

  it('an Actor or its Scope give the same SQL', () => {
    const fromActor = new SqlParams([]);
    const fromScope = new SqlParams([]);
    expect(visibleSystemIdSql(ofA, fromActor, 't.system_cuid')).toBe(visibleSystemIdSql(scopeOf(ofA), fromScope, 't.system_cuid'));
  });

  it('SqlParams numbers after the values already there', () => {
    const values: unknown[] = [1, 2];
    expect(new SqlParams(values).add('x')).toBe('$3');
    expect(values).toEqual([1, 2, 'x']);
  });
});

/**
 * The same conditions run on an in-memory PGlite over a tiny world: system s1 of A shared with B
 * read-only, system s2 of A not shared, system s3 of C shared with A with change.
 */
describe('tenancy SQL (spec §6), on a database', () => {
  let db: { query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>; close(): Promise<void> };

  beforeAll(async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    db = await PGlite.create();
    await db.query(`CREATE TABLE system (system_cuid varchar PRIMARY KEY, company_cuid varchar NOT NULL)`);
    await db.query(`CREATE TABLE system_sharing (system_cuid varchar, company_cuid varchar, change boolean, PRIMARY KEY (company_cuid, system_cuid))`);
    await db.query(`CREATE TABLE record (id varchar PRIMARY KEY, company_cuid varchar, system_cuid varchar)`);
    await db.query(`INSERT INTO system VALUES ('s1', '${A}'), ('s2', '${A}'), ('s3', '${C}')`);
    await db.query(`INSERT INTO system_sharing VALUES ('s1', '${B}', false), ('s3', '${A}', true)`);
    // r-global: no company; r-b: a company-only row of B; files of systems; a file of C's own.
    await db.query(`INSERT INTO record VALUES ('r-global', NULL, NULL), ('r-b', '${B}', NULL), ('r-s1', '${A}', 's1'),
                      ('r-s2', '${A}', 's2'), ('r-s3', '${C}', 's3'), ('r-c', '${C}', NULL)`);
  });
  afterAll(async () => db?.close());

  const ids = async (sql: (p: SqlParams) => string, from: string, key: string): Promise<string[]> => {
    const values: unknown[] = [];
    const where = sql(new SqlParams(values));
    const { rows } = await db.query<{ id: string }>(`SELECT ${key} AS id FROM ${from} WHERE ${where} ORDER BY 1`, values);
    return rows.map((r) => r.id);
  };

  it('visible systems: owned or shared (with or without change); a superuser sees all; nobody none', async () => {
    const systems = (actor: Actor) => ids((p) => visibleSystemSql(actor, p, 's'), 'system s', 's.system_cuid');
    expect(await systems(ofA)).toEqual(['s1', 's2', 's3']);
    expect(await systems(ofB)).toEqual(['s1']);
    expect(await systems(ofC)).toEqual(['s3']);
    expect(await systems(superuser)).toEqual(['s1', 's2', 's3']);
    expect(await systems(nobody)).toEqual([]);
  });

  it('visible systems by id and owned-or-shared rows give the same systems as the system condition', async () => {
    for (const actor of [ofA, ofB, ofC, superuser, nobody]) {
      const bySystem = await ids((p) => visibleSystemSql(actor, p, 's'), 'system s', 's.system_cuid');
      expect(await ids((p) => visibleSystemIdSql(actor, p, 't.system_cuid'), 'system t', 't.system_cuid')).toEqual(bySystem);
      expect(await ids((p) => ownedOrSharedSql(actor, p, { company: 't.company_cuid', system: 't.system_cuid' }), 'system t', 't.system_cuid')).toEqual(
        bySystem,
      );
    }
  });

  it('visible companies: only the caller’s; orGlobal adds rows without company', async () => {
    expect(await ids((p) => visibleCompanySql(ofB, p, 't.company_cuid'), 'record t', 't.id')).toEqual(['r-b']);
    expect(await ids((p) => visibleCompanySql(ofB, p, 't.company_cuid', { orGlobal: true }), 'record t', 't.id')).toEqual(['r-b', 'r-global']);
    expect(await ids((p) => visibleCompanySql(nobody, p, 't.company_cuid'), 'record t', 't.id')).toEqual([]);
  });

  it('records of a company and maybe a system (files): owned, or their system is visible', async () => {
    const files = (actor: Actor) => ids((p) => ownedOrVisibleSystemSql(actor, p, { company: 't.company_cuid', system: 't.system_cuid' }), 'record t', 't.id');
    expect(await files(ofA)).toEqual(['r-s1', 'r-s2', 'r-s3']);
    expect(await files(ofB)).toEqual(['r-b', 'r-s1']);
    expect(await files(ofC)).toEqual(['r-c', 'r-s3']);
    expect(await files(superuser)).toHaveLength(6);
  });

  it('shares: seen by the owner company and by the receiving company', async () => {
    const shares = (actor: Actor) =>
      ids(
        (p) => visibleShareSql(actor, p, { share: 'sh', system: 's' }),
        'system_sharing sh JOIN system s ON s.system_cuid = sh.system_cuid',
        `sh.system_cuid || ':' || sh.company_cuid`,
      );
    expect(await shares(ofA)).toEqual([`s1:${B}`, `s3:${A}`]);
    expect(await shares(ofB)).toEqual([`s1:${B}`]);
    expect(await shares(ofC)).toEqual([`s3:${A}`]);
    expect(await shares(nobody)).toEqual([]);
  });

  it('the owner and shares of a system, as the policy target needs them', async () => {
    const { rows } = await db.query<{ system_cuid: string; company_cuid: string; shares: unknown }>(
      `SELECT s.system_cuid, s.company_cuid, ${systemSharesSql('s')} AS shares FROM system s ORDER BY 1`,
    );
    expect(rows).toEqual([
      { system_cuid: 's1', company_cuid: A, shares: [{ company_cuid: B, change: false }] },
      { system_cuid: 's2', company_cuid: A, shares: [] },
      { system_cuid: 's3', company_cuid: C, shares: [{ company_cuid: A, change: true }] },
    ]);
  });
});
