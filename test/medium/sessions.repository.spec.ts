import { newCuid } from '../../server/src/common/ids';
import { SessionsRepository } from '../../server/src/auth/sessions.repository';
import { OwnSessionRepository } from '../../server/src/trpc/own-session.repository';
import { mediumWorld, type MediumWorld } from './world';

/** sessions.repository.ts (and own-session.repository.ts) on a real database: one user's session rows, nobody else's. */
describe('sessions repository (database)', () => {
  let w: MediumWorld;
  let repo: SessionsRepository;
  let installer: { user_cuid: string };
  let other: { user_cuid: string };

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new SessionsRepository(w.ds);
    installer = { user_cuid: w.users['installer@demo.local'] };
    other = { user_cuid: w.users['other@demo.local'] };
  });
  afterAll(() => w?.db.close());

  it('reads the owner, their memberships and blacklists only', async () => {
    expect(await repo.user(installer)).toMatchObject({ user_cuid: installer.user_cuid, email: 'installer@demo.local', session_epoch: expect.any(Number) });
    const memberships = await repo.memberships(installer);
    expect(memberships.length).toBeGreaterThan(0);
    expect(memberships.every((m) => m.user_cuid === installer.user_cuid)).toBe(true);
    expect(memberships.map((m) => m.company_cuid)).not.toContain(w.other);
    expect((await repo.notificationBlacklist(installer)).every((b) => b.user_cuid === installer.user_cuid)).toBe(true);
    expect((await repo.portalNotificationBlacklist(installer)).every((b) => b.user_cuid === installer.user_cuid)).toBe(true);
    expect(await repo.user({ user_cuid: newCuid() })).toBeUndefined();
  });

  it('finds the sign-in user by email in any case, with the hash', async () => {
    expect(await repo.signInUser({ email: '  Installer@Demo.local ' })).toMatchObject({ user_cuid: installer.user_cuid, inactive: false });
    expect(await repo.signInUser({ email: 'nobody@demo.local' })).toBeUndefined();
  });

  it("a revoked session is revoked for its owner only; another user's sessions are untouched", async () => {
    const sid = newCuid();
    const otherSid = newCuid();
    const exp = Math.floor(Date.now() / 1000) + 3600;
    await repo.revoke({ ...installer, sid }, exp);
    await repo.revoke({ ...installer, sid }, exp);
    expect(await repo.isRevoked({ ...installer, sid })).toBe(true);
    expect(await repo.isRevoked({ ...other, sid })).toBe(false);
    expect(await repo.isRevoked({ ...other, sid: otherSid })).toBe(false);
    const states = await repo.revocationStates([
      { ...installer, sid },
      { ...other, sid: otherSid },
      { user_cuid: newCuid(), sid: newCuid() },
    ]);
    expect(states).toHaveLength(2);
    expect(states.find((s) => s.sid === sid)).toMatchObject({ user_cuid: installer.user_cuid, revoked: true, inactive: false });
    expect(states.find((s) => s.sid === otherSid)).toMatchObject({ user_cuid: other.user_cuid, revoked: false });
  });

  it('the sweep deletes only revoked sessions expired before its bound', async () => {
    const old = newCuid();
    await repo.revoke({ ...other, sid: old }, Math.floor(Date.now() / 1000) - 60);
    await w.ds.query(SessionsRepository.SWEEP_REVOKED_SESSIONS, [new Date()]);
    expect(await repo.isRevoked({ ...other, sid: old })).toBe(false);
    expect((await w.ds.query(`SELECT count(*)::int AS n FROM revoked_session WHERE user_cuid = $1`, [installer.user_cuid]))[0].n).toBe(1);
  });

  it("own-session: reads (and locks) the user's own epoch inside the caller's transaction", async () => {
    const own = new OwnSessionRepository();
    const epoch = (await repo.user(installer))!.session_epoch;
    const otherEpoch = (await repo.user(other))!.session_epoch;
    // Only `tx` inside: the embedded database has one connection.
    await w.ds.transaction(async (tx) => {
      expect(await own.epochOf(installer, tx, true)).toBe(epoch);
      expect(await own.epochOf(other, tx, false)).toBe(otherEpoch);
    });
    expect(await own.epochOf({ user_cuid: newCuid() }, w.ds, false)).toBeUndefined();
  });
});
