import { newCuid } from '../../server/src/common/ids';
import { LoginAttemptsRepository } from '../../server/src/auth/login-attempts.repository';
import { mediumWorld, type MediumWorld } from './world';

/** login-attempts.repository.ts on a real database: each identity's attempts, and nobody else's. */
describe('login attempts repository (database)', () => {
  let w: MediumWorld;
  let repo: LoginAttemptsRepository;
  const t0 = new Date('2026-01-01T00:00:00Z');
  const before = new Date(t0.getTime() - 1000);
  const alice = { account: 'alice@x.io', address: '10.0.0.1' };
  const aliceElsewhere = { account: 'alice@x.io', address: '10.0.0.2' };
  const bob = { account: 'bob@x.io', address: '10.0.0.3' };

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new LoginAttemptsRepository(w.ds);
  });
  afterAll(() => w?.db.close());

  it('counts an identity per pair, account and address, inside a transaction with its locks', async () => {
    await repo.transaction(async (rows) => {
      await rows.lockLogin(alice);
      await rows.insertLogin(alice, newCuid(), t0);
      await rows.insertLogin(alice, newCuid(), new Date(t0.getTime() + 1000));
      await rows.insertLogin(aliceElsewhere, newCuid(), t0);
    });
    const c = await repo.countLogins(alice, before);
    expect(c).toMatchObject({ pair: 2, account: 3, address: 2 });
    expect(new Date(c.pair_oldest!).getTime()).toBe(t0.getTime());
    expect((await repo.countLogins(alice, new Date(t0.getTime() + 500))).pair).toBe(1);
  });

  it("another identity's attempts are never counted, cleared or deleted", async () => {
    const bobTicket = newCuid();
    await repo.insertLogin(bob, bobTicket, t0);
    expect(await repo.countLogins(bob, before)).toMatchObject({ pair: 1, account: 1, address: 1 });
    expect((await repo.countLogins(alice, before)).account).toBe(3);
    // Alice's success and release, even naming Bob's ticket, leave Bob's attempt alone.
    await repo.deleteLogin(alice, bobTicket);
    await repo.clearLogins(alice, bobTicket);
    expect(await repo.countLogins(bob, before)).toMatchObject({ pair: 1 });
    // Alice's clear removed her attempts from that address only.
    expect(await repo.countLogins(alice, before)).toMatchObject({ pair: 0, account: 1 });
    await repo.deleteLogin(bob, bobTicket);
    expect((await repo.countLogins(bob, before)).pair).toBe(0);
  });

  it("counts a user's password changes, never another user's", async () => {
    const me = { user_cuid: w.users['installer@demo.local'] };
    const other = { user_cuid: w.users['other@demo.local'] };
    await repo.transaction(async (rows) => {
      await rows.lockPasswordChanges(me);
      await rows.insertPasswordChange(me, newCuid(), t0);
      await rows.insertPasswordChange(me, newCuid(), new Date(t0.getTime() + 1000));
    });
    const c = await repo.countPasswordChanges(me, before);
    expect(c.n).toBe(2);
    expect(new Date(c.oldest!).getTime()).toBe(t0.getTime());
    expect(await repo.countPasswordChanges(other, before)).toEqual({ n: 0, oldest: null });
    await repo.insertPasswordChange(other, newCuid(), t0);
    expect((await repo.countPasswordChanges(me, before)).n).toBe(2);
  });

  it('the sweep statements delete only rows older than their bound', async () => {
    await w.ds.query(LoginAttemptsRepository.SWEEP_LOGIN_ATTEMPTS, [t0]);
    expect((await repo.countLogins(alice, before)).account).toBe(1);
    await w.ds.query(LoginAttemptsRepository.SWEEP_PASSWORD_CHANGES, [new Date(t0.getTime() + 500)]);
    expect((await repo.countPasswordChanges({ user_cuid: w.users['installer@demo.local'] }, before)).n).toBe(1);
    expect((await repo.countPasswordChanges({ user_cuid: w.users['other@demo.local'] }, before)).n).toBe(0);
  });
});
