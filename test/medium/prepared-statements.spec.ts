/**
 * Named statements on the pool (server/src/database/prepared-statements.ts), on a real database:
 * a statement is prepared once per connection and answers like an unnamed one; a changed text
 * under the same name is a new statement (never PostgreSQL's "prepared statement already exists"
 * nor the driver's "Prepared statements must be unique"); a failing value does not spoil the name.
 */
import { PreparedStatements } from '../../server/src/database/prepared-statements';
import { createTestDataSource, type TestDatabase } from '../factories/database';

describe('prepared statements', () => {
  let db: TestDatabase;
  let prepared: PreparedStatements;

  beforeAll(async () => {
    db = await createTestDataSource();
    prepared = new PreparedStatements(db.dataSource);
    await db.dataSource.query(`INSERT INTO company (company_cuid, name) VALUES ('prep-a', 'Prepared A'), ('prep-b', 'Prepared B'), ('prep-c', 'Prepared C')`);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('answers as an unnamed statement does, call after call, on every pooled connection', async () => {
    const text = `SELECT name, company_cuid FROM company WHERE company_cuid = ANY($1::text[]) ORDER BY name`;
    const ids = (await db.dataSource.query<{ company_cuid: string }[]>(`SELECT company_cuid FROM company WHERE company_cuid LIKE 'prep-%'`)).map(
      (r) => r.company_cuid,
    );
    expect(ids.length).toBeGreaterThan(1);
    const unnamed = await db.dataSource.query(text, [ids]);
    // more calls at once than a pool has connections: each connection prepares it once
    const answers = await Promise.all(Array.from({ length: 24 }, () => prepared.query('companies', text, [ids])));
    for (const a of answers) expect(a).toEqual(unnamed);
    const [one] = await prepared.query<{ name: string }>('companies', text, [[ids[0]]]);
    expect(one.name).toBe(unnamed.find((r: { company_cuid: string }) => r.company_cuid === ids[0]).name);
  });

  it('the same name with another text is another statement', async () => {
    const a = await prepared.query<{ v: number }>('shape', `SELECT 1 + $1::int AS v`, [1]);
    const b = await prepared.query<{ v: number }>('shape', `SELECT 10 + $1::int AS v`, [1]);
    const c = await prepared.query<{ v: number }>('shape', `SELECT 1 + $1::int AS v`, [2]);
    expect([a[0].v, b[0].v, c[0].v]).toEqual([2, 11, 3]);
  });

  it('a value the statement refuses fails that call only', async () => {
    const text = `SELECT 100 / $1::int AS v`;
    await expect(prepared.query('divide', text, [0])).rejects.toThrow(/division by zero/);
    expect((await prepared.query<{ v: number }>('divide', text, [4]))[0].v).toBe(25);
    await expect(prepared.query('divide', text, [0])).rejects.toThrow(/division by zero/);
    expect((await prepared.query<{ v: number }>('divide', text, [5]))[0].v).toBe(20);
    expect(await db.dataSource.query(`SELECT 7 AS v`)).toEqual([{ v: 7 }]);
  });
});
