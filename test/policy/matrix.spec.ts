/**
 * The policy matrix: every tRPC procedure × role level 0–3 (and the company-admin variant where
 * §6 talks about admins) × {own, foreign, shared read-only, shared with change} × {active,
 * inactive}. Expectations come from ./matrix.fixture.ts (written from spec §6, not from policy.ts).
 * This file: the fixture against the router, level 0 and inactive users; levels 1–3 are in
 * matrix-levels.spec.ts (a file of their own, so the two run side by side).
 */
import { addMember } from '../factories/users';
import { HttpClient } from '../factories/http-client';
import { LEVELS, listProcedures, pool } from '../factories/policy-world';
import { MATRIX, procedureOf } from './matrix.fixture';
import { call, type Case, casesFor, KNOWN_INACTIVE_STREAM, name, policyWorldFor, prepare, run, TIME_DRIVEN } from './matrix-harness';

// A level of the matrix took up to ~300 s on a loaded 2-core machine; a hang still fails.
jest.setTimeout(900_000);

describe('policy matrix (spec §6)', () => {
  const world = policyWorldFor();

  it('the fixture names every procedure of the app router, and only those (no procedure without expectations)', () => {
    const { w } = world;
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

  it('level 0 (superuser): every procedure on every relation, as the fixture says', async () => {
    const { w } = world;
    const cases = casesFor(w, [0]);
    await pool(cases, 6, (c) => prepare(w, c));
    expect(await run(w, cases, false)).toEqual([]);
  });

  it('an inactive user cannot sign in, and their existing session is refused (401) by every procedure; nothing is written', async () => {
    const { t, w } = world;
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
    const since = new Date();
    const before = await w.checksumAll(TIME_DRIVEN, since);
    const failures: string[] = [];
    await pool(cases, 8, async (c) => {
      const answer = await call(c.client!, c.path, c.entry.type, c.input);
      if (c.entry.type === 'subscription' && answer.status === 200 && !/UNAUTHORIZED/.test(answer.text))
        failures.push(`${name(c)} (inactive): the stream did not report UNAUTHORIZED: ${answer.text.slice(0, 200)}`);
      if (answer.status !== 401 && !(c.entry.type === 'subscription' && KNOWN_INACTIVE_STREAM))
        failures.push(`${name(c)} (inactive): expected 401, got ${answer.status} ${answer.text.slice(0, 200)}`);
    });
    expect(failures.sort()).toEqual([]);
    expect(await w.checksumAll(TIME_DRIVEN, since)).toEqual(before);
  });
});
