/**
 * The policy matrix: every tRPC procedure × role level 0–3 (and the company-admin variant where
 * §6 talks about admins) × {own, foreign, shared read-only, shared with change} × {active,
 * inactive}. Expectations come from ./matrix.fixture.ts (written from spec §6, not from policy.ts).
 */
import { startTestApp, type TestApp } from '../factories/app';
import { addMember } from '../factories/users';
import { HttpClient, type TrpcAnswer } from '../factories/http-client';
import { LEVELS, listProcedures, PolicyWorld, pool, RELATIONS, type Relation } from '../factories/policy-world';
import { type Access, type Entry, LEAK_MARKERS, MATRIX, procedureOf, type Who } from './matrix.fixture';

jest.setTimeout(300_000);

/**
 * KNOWN: tRPC answers a subscription over SSE with 200 and reports the error inside the stream,
 * so an inactive user's portalNotification.onEvent does not get a 401 status; the stream must
 * carry the UNAUTHORIZED error instead (checked below).
 */
const KNOWN_INACTIVE_STREAM = true;

/** Tables no request writes but the clock does (controllers' online state), and session bookkeeping. */
const TIME_DRIVEN = ['revoked_session', 'migrations', 'controller_presence', 'controller_online_state', 'controller_online_state_history', 'controller_online_state_history_p202611', 'controller_online_state_history_p202612'];

interface Case {
  /** The MATRIX key (a procedure path, maybe with a variant). */
  key: string;
  /** The procedure called. */
  path: string;
  entry: Entry;
  who: Who;
  rel: Relation;
  client?: HttpClient;
  input?: unknown;
  target?: string;
  expected: Access;
}

/** Calls a procedure the way the browser does; a subscription is opened and closed again. */
async function call(client: HttpClient, path: string, type: Entry['type'], input: unknown): Promise<Pick<TrpcAnswer<unknown>, 'status' | 'text'>> {
  if (type === 'query') return client.query(path, input);
  if (type === 'mutation') return client.mutate(path, input);
  const abort = new AbortController();
  const res = await fetch(`${client.baseUrl}/api/trpc/${path}`, { headers: { cookie: client.cookieHeader(), accept: 'text/event-stream' }, signal: abort.signal });
  let text = '';
  if (!(res.headers.get('content-type') ?? '').includes('event-stream')) text = await res.text();
  else {
    // the first event of the stream (a connection or an error event)
    const reader = res.body!.getReader();
    const first = await Promise.race([reader.read(), new Promise<undefined>((r) => setTimeout(r, 2000))]);
    text = first && first.value ? new TextDecoder().decode(first.value) : '';
  }
  abort.abort();
  return { status: res.status, text };
}

function judge(c: Case, answer: { status: number; text: string }): string | undefined {
  const got = `${answer.status} ${answer.text.slice(0, 300)}`;
  const list = c.entry.answer === 'list';
  switch (c.expected) {
    case 'allow':
      if (answer.status !== 200) return `expected allow (200), got ${got}`;
      if (list && c.target && !answer.text.includes(c.target)) return `expected the target ${c.target} in the list, got ${got}`;
      return undefined;
    case 'deny':
      return answer.status === 403 ? undefined : `expected deny (403), got ${got}`;
    case 'unseen':
      if (!list) return answer.status === 404 ? undefined : `expected unseen (404), got ${got}`;
      if (answer.status !== 200) return `expected unseen (200 without the target), got ${got}`;
      return c.target && answer.text.includes(c.target) ? `expected the target ${c.target} NOT in the list, got ${got}` : undefined;
    case 'rowsRefused':
      return answer.status === 200 && /"created":0/.test(answer.text) && /"errors":\[\{/.test(answer.text) ? undefined : `expected a refused import (200, created 0, row errors), got ${got}`;
    case 'invalid':
      return answer.status === 400 ? undefined : `expected invalid (400), got ${got}`;
  }
}

const name = (c: Case) => `${c.key} as L${c.who.level}${c.who.admin ? '+admin' : ''} on ${c.rel}`;

describe('policy matrix (spec §6)', () => {
  let t: TestApp;
  let w: PolicyWorld;

  beforeAll(async () => {
    t = await startTestApp();
    w = new PolicyWorld(t);
    await w.build();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the fixture names every procedure of the app router, and only those (no procedure without expectations)', () => {
    const procedures = listProcedures(w.appRouter());
    expect(procedures.size).toBeGreaterThan(100);
    const missing = [...procedures.keys()].filter((p) => !(p in MATRIX));
    const stale = Object.keys(MATRIX).filter((k) => !procedures.has(procedureOf(k)));
    // a variant key is `<procedure> [<variant>]`, next to the plain entry of the same procedure
    const badVariant = Object.keys(MATRIX).filter((k) => k !== procedureOf(k) && (!/^\S+ \[[^\]]+\]$/.test(k) || !(procedureOf(k) in MATRIX)));
    expect({ missingFromFixture: missing, notInRouter: stale, badVariant }).toEqual({ missingFromFixture: [], notInRouter: [], badVariant: [] });
    const wrongType = Object.entries(MATRIX)
      .filter(([k, e]) => procedures.get(procedureOf(k))!.type !== e.type)
      .map(([k]) => k);
    expect(wrongType).toEqual([]);
  });

  function casesFor(levels: readonly number[]): Case[] {
    const procedures = listProcedures(w.appRouter());
    const out: Case[] = [];
    for (const [key, entry] of Object.entries(MATRIX)) {
      const path = procedureOf(key);
      if (!procedures.has(path)) throw new Error(`${key}: no such procedure (the meta-test says so too)`);
      for (const level of levels as Who['level'][]) {
        const variants = entry.admin && level > 0 ? [false, true] : [false];
        for (const admin of variants) {
          for (const rel of RELATIONS) out.push({ key, path, entry, who: { level, admin }, rel, expected: entry.expect({ level, admin }, rel) });
        }
      }
    }
    return out;
  }

  async function prepare(c: Case): Promise<void> {
    const home = c.entry.freshHome ? await w.company(`home ${c.key} ${c.rel}`) : w.places.own.company_cuid;
    const u = await w.user(c.who.level, c.who.admin, home);
    const built = await c.entry.input({ w, rel: c.rel, who: c.who, home, actor_user_cuid: u.user_cuid });
    c.input = built.input;
    c.target = built.target;
    c.client = await w.signIn(u.user_cuid);
  }

  async function run(cases: Case[], leakCheck: boolean): Promise<string[]> {
    const failures: string[] = [];
    const markers = [...LEAK_MARKERS, ...w.foreignCompanies, w.places.foreign.system_cuid, w.places.foreign.site_cuid];
    await pool(cases, 8, async (c) => {
      const answer = await call(c.client!, c.path, c.entry.type, c.input);
      const verdict = judge(c, answer);
      if (verdict) failures.push(`${name(c)}: ${verdict}`);
      if (leakCheck) {
        const leaked = markers.filter((m) => answer.text.includes(m));
        if (leaked.length) failures.push(`${name(c)}: CROSS-COMPANY READ, the answer contains ${leaked.join(', ')}`);
      }
    });
    return failures.sort();
  }

  it('level 0 (superuser): every procedure on every relation, as the fixture says', async () => {
    const cases = casesFor([0]);
    await pool(cases, 6, prepare);
    expect(await run(cases, false)).toEqual([]);
  });

  it('levels 1–3 (with and without company admin): as the fixture says, with zero cross-company reads or writes', async () => {
    const cases = casesFor([1, 2, 3]);
    expect(cases.length).toBeGreaterThan(1000);
    await pool(cases, 6, prepare);
    const foreign = [...w.foreignCompanies];
    const before = await w.checksumOf(foreign);
    expect(Object.keys(before).length).toBeGreaterThan(3);
    const failures = await run(cases, true);
    expect(failures).toEqual([]);
    // nothing of the foreign companies changed (they were all made before the first call)
    expect(await w.checksumOf(foreign)).toEqual(before);
  });

  it('an inactive user cannot sign in, and their existing session is refused (401) by every procedure; nothing is written', async () => {
    for (const level of LEVELS) {
      const email = `inactive-${level}-${process.pid}@policy.test`;
      const user_cuid = await addMember(w.ds, email, 'Policy own', level, level < 3);
      const client = new HttpClient(t.baseUrl);
      expect((await client.login(email)).status).toBe(200);
      expect((await client.query('role.all')).status).toBe(200);
      await w.setInactive(user_cuid);
      const again = await new HttpClient(t.baseUrl).login(email);
      expect(again.status).toBe(403);
      expect(again.text).toMatch(/inactive/i);
      expect((await client.query('role.all')).status).toBe(401);
    }

    // every procedure, with a valid input on the own relation, from sessions issued while active
    const procedures = listProcedures(w.appRouter());
    const cases: (Case & { user_cuid?: string })[] = [];
    for (const [key, entry] of Object.entries(MATRIX)) {
      const path = procedureOf(key);
      if (!procedures.has(path)) throw new Error(`${key}: no such procedure`);
      for (const level of LEVELS) cases.push({ key, path, entry, who: { level, admin: level > 0 }, rel: 'own', expected: 'deny' });
    }
    await pool(cases, 6, async (c) => {
      const u = await w.user(c.who.level, c.who.admin, w.places.own.company_cuid);
      const built = await c.entry.input({ w, rel: 'own', who: c.who, home: w.places.own.company_cuid, actor_user_cuid: u.user_cuid });
      c.input = built.input;
      c.client = await w.signIn(u.user_cuid);
      c.user_cuid = u.user_cuid;
    });
    await pool(cases, 6, async (c) => w.setInactive(c.user_cuid!));
    const before = await w.checksumAll(TIME_DRIVEN);
    const failures: string[] = [];
    await pool(cases, 8, async (c) => {
      const answer = await call(c.client!, c.path, c.entry.type, c.input);
      if (c.entry.type === 'subscription' && answer.status === 200 && !/UNAUTHORIZED/.test(answer.text))
        failures.push(`${name(c)} (inactive): the stream did not report UNAUTHORIZED: ${answer.text.slice(0, 200)}`);
      if (answer.status !== 401 && !(c.entry.type === 'subscription' && KNOWN_INACTIVE_STREAM)) failures.push(`${name(c)} (inactive): expected 401, got ${answer.status} ${answer.text.slice(0, 200)}`);
    });
    expect(failures.sort()).toEqual([]);
    expect(await w.checksumAll(TIME_DRIVEN)).toEqual(before);
  });
});
