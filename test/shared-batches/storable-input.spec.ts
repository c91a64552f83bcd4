/**
 * The class "input PostgreSQL cannot store is refused at the edge" (docs/security.md, "A shared
 * batch never fails for one bad item"): every text field, object key and number of every tRPC
 * procedure, at any depth (JSON payloads, layouts, configurations included), given NUL, a lone
 * UTF-16 surrogate, NaN or Infinity answers 400 with a field error naming it, never 500, and never
 * reaches a shared write. The fields are found in each procedure's valid input (built by the policy
 * matrix fixture) and in its input schema (optional fields the valid input leaves out).
 */
import superjson from 'superjson';
import { NOT_FINITE_MESSAGE, NUL_MESSAGE, SURROGATE_MESSAGE } from '../../shared/common/storable';
import { startTestApp, type TestApp } from '../factories/app';
import { PNG_BYTES, upload } from '../factories/files';
import type { HttpClient } from '../factories/http-client';
import { listProcedures, PolicyWorld, pool } from '../factories/policy-world';
import { type CaseCtx, MATRIX, procedureOf } from '../policy/matrix.fixture';
import { type Path, walkSchema } from '../factories/schema-walk';

jest.setTimeout(600_000);

/** Paths of the text and number fields an input schema declares (records and unknowns: a key is tried under them). */
function schemaFields(schema: unknown): { text: Path[]; number: Path[]; open: Path[] } {
  const out = { text: [] as Path[], number: [] as Path[], open: [] as Path[] };
  walkSchema(schema, null, {
    unions: 'first',
    pipes: 'in',
    maxDepth: 12,
    visit: (_s, d, path) => {
      if (d.type === 'string') out.text.push(path);
      else if (d.type === 'number') out.number.push(path);
      else if (d.type === 'record' || d.type === 'unknown' || d.type === 'any') out.open.push(path);
      return null;
    },
  });
  return out;
}

/** Paths of the texts and numbers a value holds. */
function valueFields(value: unknown, path: Path = [], out = { text: [] as Path[], number: [] as Path[] }) {
  if (typeof value === 'string') out.text.push(path);
  else if (typeof value === 'number') out.number.push(path);
  else if (Array.isArray(value)) value.forEach((v, i) => valueFields(v, [...path, i], out));
  else if (value && typeof value === 'object' && !(value instanceof Date)) for (const [k, v] of Object.entries(value)) valueFields(v, [...path, k], out);
  return out;
}

/** A deep copy made in this realm (structuredClone's objects come from another one under jest, and superjson would not walk them). */
const copy = (v: unknown): unknown =>
  v instanceof Date
    ? new Date(v.getTime())
    : Array.isArray(v)
      ? v.map(copy)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x)]))
        : v;

function setAt(input: unknown, path: Path, value: unknown): unknown {
  if (!path.length) return value;
  const root = (input !== null && typeof input === 'object' ? copy(input) : {}) as Record<string | number, unknown>;
  let node = root;
  path.slice(0, -1).forEach((key, i) => {
    if (node[key] === null || typeof node[key] !== 'object' || node[key] instanceof Date) node[key] = typeof path[i + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  });
  node[path[path.length - 1]] = value;
  return root;
}

const TEXT_POISON: [string, string, string][] = [
  ['NUL', 'before\u0000after', NUL_MESSAGE],
  ['a lone high surrogate', 'broken \ud83d here', SURROGATE_MESSAGE],
  ['a lone low surrogate', '\ude00', SURROGATE_MESSAGE],
];
const NUMBER_POISON: [string, number][] = [
  ['NaN', NaN],
  ['Infinity', Infinity],
  ['-Infinity', -Infinity],
];

describe('storable input: every text field, key and number of every procedure', () => {
  let t: TestApp;
  let w: PolicyWorld;
  let ctx: CaseCtx;
  let procedures: ReturnType<typeof listProcedures>;

  beforeAll(async () => {
    t = await startTestApp();
    w = new PolicyWorld(t);
    await w.build();
    const su = await w.actor(0, true);
    ctx = { w, rel: 'own', who: { level: 0, admin: true }, home: w.places.own.company_cuid, actor_user_cuid: su.user_cuid! };
    procedures = listProcedures(w.appRouter());
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Sends `input` as the procedure's type wants it (superjson keeps NaN and Infinity). */
  async function call(c: HttpClient, path: string, type: string, input: unknown) {
    if (type === 'query') {
      const qs = `?input=${encodeURIComponent(JSON.stringify(superjson.serialize(input)))}`;
      return c.request('GET', `/api/trpc/${path}${qs}`);
    }
    return c.request('POST', `/api/trpc/${path}`, { body: JSON.stringify(superjson.serialize(input)), headers: { 'content-type': 'application/json' } });
  }

  it('NUL, a lone surrogate (text and keys), NaN and ±Infinity anywhere in any input answer 400 naming the field, never 500 (valid inputs pass: test/policy/matrix.spec.ts, stored-input-fields.spec.ts)', async () => {
    const keys = Object.keys(MATRIX).filter((k) => k === procedureOf(k) && MATRIX[k].type !== 'subscription' && procedures.has(k));
    expect(keys.length).toBeGreaterThan(150);
    const failures: string[] = [];
    let cases = 0;
    const covered = new Set<string>();
    await pool(keys, 4, async (key) => {
      const proc = procedures.get(key)!;
      let valid: unknown;
      try {
        // Entries about the actor's own company get a fresh one (as the matrix harness does).
        const home = MATRIX[key].freshHome ? await w.company(`home ${key}`) : ctx.home;
        valid = (await MATRIX[key].input({ ...ctx, home })).input;
      } catch (e) {
        failures.push(`${key}: no valid input (${(e as Error).message.slice(0, 200)})`);
        return;
      }
      const fromSchema = schemaFields(proc.inputs[0]);
      const fromValue = valueFields(valid);
      const uniq = (paths: Path[]) => [...new Map(paths.map((p) => [p.join('.'), p])).values()];
      const texts = uniq([...fromValue.text, ...fromSchema.text]);
      const numbers = uniq([...fromValue.number, ...fromSchema.number]);
      // A key under every open object (records, JSON fields), and a text inside it.
      const open = fromSchema.open;
      const tries: { field: Path; named: string; value: unknown; message: string; why: string }[] = [];
      for (const field of texts) for (const [why, v, message] of TEXT_POISON) tries.push({ field, named: field.join('.'), value: v, message, why });
      for (const field of numbers)
        for (const [why, v] of NUMBER_POISON) tries.push({ field, named: field.join('.'), value: v, message: NOT_FINITE_MESSAGE, why });
      for (const field of open) {
        tries.push({
          field,
          named: [...field, 'deep', 0, 'note'].join('.'),
          value: { deep: [{ note: 'x\u0000' }] },
          message: NUL_MESSAGE,
          why: 'NUL deep in JSON',
        });
        tries.push({ field, named: [...field, 'k\ud800'].join('.'), value: { 'k\ud800': 1 }, message: SURROGATE_MESSAGE, why: 'a lone surrogate in a key' });
        tries.push({ field, named: [...field, 'n'].join('.'), value: { n: NaN }, message: NOT_FINITE_MESSAGE, why: 'NaN in JSON' });
      }
      // A fresh superuser per procedure: a valid write may end its own session (password, company create).
      const actor = await w.actor(0, true);
      for (const tr of tries) {
        cases++;
        const res = await call(actor, key, proc.type, setAt(valid, tr.field, tr.value));
        const error = (res.body as { error?: { json?: { data?: { httpStatus?: number; fieldErrors?: { path: string; message: string }[] } } } })?.error?.json;
        const named = error?.data?.fieldErrors?.some(
          (e) => (e.path === tr.named || tr.named.startsWith(`${e.path}.`) || e.path === tr.named.replace(/\ud800/g, '\ufffd')) && e.message === tr.message,
        );
        if (res.status !== 400 || !named) failures.push(`${key} ${tr.named} with ${tr.why}: ${res.status} ${res.text.slice(0, 200)}`);
        else covered.add(key);
      }
    });
    expect(failures.sort()).toEqual([]);
    expect(cases).toBeGreaterThan(1000);
    // The findings of issue 24 are among them.
    for (const p of ['controllerCommand.send', 'controllerConfig.apply', 'dashboard.update', 'company.update', 'controller.update'])
      if (keys.includes(p)) expect({ p, covered: covered.has(p) }).toEqual({ p, covered: true });
  });

  it('a REST upload with NUL in a form field answers 400 naming the field and stores nothing; NUL in the file name is dropped from the stored name', async () => {
    const su = await w.actor(0, true);
    const company_cuid = w.places.own.company_cuid;
    const count = async () => (await t.db.dataSource.query(`SELECT count(*)::int AS n FROM hosted_file`))[0].n as number;
    const before = await count();
    const bad = await upload(su, { company_cuid: `${company_cuid}\u0000` }, { bytes: PNG_BYTES, type: 'image/png', name: 'plan.png' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'BAD_REQUEST', fieldErrors: [{ path: 'company_cuid' }] });
    expect(await count()).toBe(before);
    const named = await upload(su, { company_cuid }, { bytes: PNG_BYTES, type: 'image/png', name: 'pl\u0000an.png' });
    expect(named.status).toBe(201);
    const [row] = await t.db.dataSource.query(`SELECT "fileName" FROM hosted_file WHERE id = $1`, [named.body.data.id]);
    expect(row.fileName).toBe('plan.png');
  });
});
