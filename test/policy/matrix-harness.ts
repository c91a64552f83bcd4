/**
 * What the policy matrix's spec files share (matrix.spec.ts: the fixture, level 0 and inactive
 * users; matrix-levels.spec.ts: levels 1, 2 and 3): how a case is built, called and judged.
 * Expectations come from ./matrix.fixture.ts (written from spec §6, not from policy.ts).
 */
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient, type TrpcAnswer } from '../factories/http-client';
import { type Level, listProcedures, PolicyWorld, pool, RELATIONS, type Relation, uniq } from '../factories/policy-world';
import { type Access, type Entry, LEAK_MARKERS, MATRIX, procedureOf, type Who } from './matrix.fixture';

/**
 * KNOWN: tRPC answers a subscription over SSE with 200 and reports the error inside the stream,
 * so an inactive user's portalNotification.onEvent does not get a 401 status; the stream must
 * carry the UNAUTHORIZED error instead (checked below).
 */
export const KNOWN_INACTIVE_STREAM = true;

/** Tables no request writes but the clock does (controllers' online state), and session bookkeeping. */
export const TIME_DRIVEN = [
  'revoked_session',
  'migrations',
  'controller_presence',
  'controller_online_state',
  'controller_online_state_history',
  'controller_online_state_history_p202611',
  'controller_online_state_history_p202612',
];

export interface Case {
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
  expected: Access | 'refused';
  /** Two-company actors: the level the actor also holds (not admin) in a company related to nothing of the case. */
  other?: Level;
}

/** Calls a procedure the way the browser does; a subscription is opened and closed again. */
export async function call(client: HttpClient, path: string, type: Entry['type'], input: unknown): Promise<Pick<TrpcAnswer<unknown>, 'status' | 'text'>> {
  if (type === 'query') return client.query(path, input);
  if (type === 'mutation') return client.mutate(path, input);
  const abort = new AbortController();
  const res = await fetch(`${client.baseUrl}/api/trpc/${path}`, {
    headers: { cookie: client.cookieHeader(), accept: 'text/event-stream' },
    signal: abort.signal,
  });
  let text: string;
  if (!(res.headers.get('content-type') ?? '').includes('event-stream')) text = await res.text();
  else {
    // the first event of the stream (a connection or an error event; it comes at once, but a loaded
    // machine may take seconds: the bound only keeps a silent stream from hanging the test)
    const reader = res.body!.getReader();
    const first = await Promise.race([reader.read(), new Promise<undefined>((r) => setTimeout(r, 20_000))]);
    text = first && first.value ? new TextDecoder().decode(first.value) : '';
  }
  abort.abort();
  return { status: res.status, text };
}

export function judge(c: Case, answer: { status: number; text: string }): string | undefined {
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
      return answer.status === 200 && /"created":0/.test(answer.text) && /"errors":\[\{/.test(answer.text)
        ? undefined
        : `expected a refused import (200, created 0, row errors), got ${got}`;
    case 'invalid':
      return answer.status === 400 ? undefined : `expected invalid (400), got ${got}`;
    case 'refused':
      return answer.status === 403 || answer.status === 404 ? undefined : `expected refused (403 or 404), got ${got}`;
  }
}

export const name = (c: Case) =>
  `${c.key} as L${c.who.level}${c.who.admin ? '+admin' : ''}${c.other !== undefined ? ` (and L${c.other} in another company)` : ''} on ${c.rel}`;

/**
 * What an actor holding `who` in the case's company and `other` in a company related to nothing of
 * the case gets: exactly what the one-company actor at `who` gets, except where that one is refused
 * for their level alone (the same actor at `other` would not be) while `other` passes the first
 * check (some membership at the level). Then the second membership only changes how the refusal
 * shows, never what is read or written:
 *   - a record seen only at another level, or a foreign one, stays unseen (404, or a list without it;
 *     a write variant with a reference to something unseen: 403 or 404, see below);
 *   - a list answers 200 without the target (only the other company's rows);
 *   - a record seen through the case's company is refused (403: seen, level too low there);
 *   - records of no company (catalogues), a call without valid input, or a CSV import checked row by
 *     row answer as they do for the other level on a record that is not theirs.
 */
export function expectTwoLevels(key: string, entry: Entry, who: Who, rel: Relation, other: Level): Access | 'refused' {
  const here = entry.expect(who, rel);
  if (here !== 'deny') return here;
  // refused whatever the level (admin rules, "never" rules): not a matter of levels
  const withLevel = entry.expect({ level: other, admin: who.admin }, rel);
  if (withLevel === 'deny') return 'deny';
  // the other level does not pass the first check either
  const elsewhere = entry.expect({ level: other, admin: false }, 'foreign');
  if (elsewhere === 'deny') return 'deny';
  // A write variant whose input names something the case's company does not see (a device moved in
  // from another system, a controller of another system): the level on the record is checked first
  // when the record is seen (403), the reference otherwise (404); refused either way.
  if (withLevel === 'unseen') return entry.type === 'mutation' && key !== procedureOf(key) ? 'refused' : 'unseen';
  if (elsewhere !== 'unseen') return elsewhere;
  return entry.answer === 'list' || rel === 'foreign' ? 'unseen' : 'deny';
}

/** Every case of the matrix for an actor at `level` in the case's company who is also `other` in a company of their own. */
export function casesForTwoLevels(w: PolicyWorld, level: Level, other: Level): Case[] {
  return casesFor(w, [level]).map((c) => ({ ...c, other, expected: expectTwoLevels(c.key, c.entry, c.who, c.rel, other) }));
}

/** Every case of the matrix for the given levels (each level × admin variant × relation). */
export function casesFor(w: PolicyWorld, levels: readonly number[]): Case[] {
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

/** A fresh user in the case's home company, its input and a signed-in client. */
export async function prepare(w: PolicyWorld, c: Case): Promise<void> {
  const home = c.entry.freshHome ? await w.company(`home ${c.key} ${c.rel}`) : w.places.own.company_cuid;
  const u = await w.user(c.who.level, c.who.admin, home);
  if (c.other !== undefined) await w.membership(u.user_cuid, await w.company(`second ${uniq()}`), c.other, false);
  const built = await c.entry.input({ w, rel: c.rel, who: c.who, home, actor_user_cuid: u.user_cuid });
  c.input = built.input;
  c.target = built.target;
  c.client = await w.signIn(u.user_cuid);
}

/** Calls every case and returns what went against the fixture (and, with leakCheck, any foreign marker in an answer). */
export async function run(w: PolicyWorld, cases: Case[], leakCheck: boolean): Promise<string[]> {
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

/**
 * Prepares and calls every case, checking answers against the fixture and for foreign markers, and
 * that nothing of the foreign companies changed (all made before the first call): the failures.
 */
export async function runAgainstForeign(
  w: PolicyWorld,
  cases: Case[],
): Promise<{ failures: string[]; foreignBefore: Record<string, string>; foreignAfter: Record<string, string> }> {
  await pool(cases, 6, (c) => prepare(w, c));
  const foreign = [...w.foreignCompanies];
  const foreignBefore = await w.checksumOf(foreign);
  const failures = await run(w, cases, true);
  return { failures, foreignBefore, foreignAfter: await w.checksumOf(foreign) };
}

/**
 * The matrix's world for a describe block: the app and the companies, systems and users of every
 * relation, built before the tests and closed after them. Read `world.t` / `world.w` inside tests.
 */
export function policyWorldFor(): { t: TestApp; w: PolicyWorld } {
  const world = {} as { t: TestApp; w: PolicyWorld };
  beforeAll(async () => {
    world.t = await startTestApp();
    world.w = new PolicyWorld(world.t);
    await world.w.build();
  });
  afterAll(async () => {
    await world.t?.close();
  });
  return world;
}
