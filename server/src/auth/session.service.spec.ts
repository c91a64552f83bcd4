import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { MemorySessions, membershipRow, NO_DATABASE } from '../../../test/factories/memory-sessions';
import { loadConfig } from '../api/app-config';
import { SESSION_MAX_AGE_SECONDS } from './session-cookie';
import { SessionService } from './session.service';

/**
 * The session rules with an in-memory stand-in for their repository: what a cookie grants, and
 * every way it stops granting it (signed out, user deactivated, epoch moved, expired, not ours).
 */
describe('SessionService rules', () => {
  /** A fresh random key per service, as a deployment's own. */
  const withKey = () => loadConfig({ SESSION_SECRET: randomBytes(32).toString('base64url') });
  const config = withKey();
  let store: MemorySessions;
  let sut: SessionService;
  const services: SessionService[] = [];
  const make = (secret = config) => {
    const s = new SessionService(NO_DATABASE, secret, store.asRepository());
    services.push(s);
    return s;
  };

  beforeEach(() => {
    store = new MemorySessions();
    sut = make();
  });
  afterEach(() => {
    jest.restoreAllMocks();
    for (const s of services.splice(0)) s.onModuleDestroy();
  });

  const ada = () => {
    const user = store.add({ user_cuid: 'u-ada', email: 'ada@a.test', name: 'Ada' });
    user.memberships.push(membershipRow(user, 'c-a', 2), membershipRow(user, 'c-b', 3));
    return user;
  };

  it('issues a session whose context holds the user and every membership, and whose check grants that actor', async () => {
    ada();
    const issued = await sut.issue('u-ada');
    expect(issued).toBeDefined();
    expect(issued!.payload.ctx.user).toMatchObject({ user_cuid: 'u-ada', email: 'ada@a.test', name: 'Ada', inactive: false });
    expect(issued!.payload.ctx.memberships.map((m) => [m.company_cuid, m.role.level])).toEqual([
      ['c-a', 2],
      ['c-b', 3],
    ]);
    expect(issued!.payload.ctx.isSuperUser).toBe(false);
    const check = await sut.check(issued!.cookie);
    expect(check.ok && check.actor).toEqual({
      user_cuid: 'u-ada',
      memberships: [
        { company_cuid: 'c-a', level: 2, is_company_admin: false },
        { company_cuid: 'c-b', level: 3, is_company_admin: false },
      ],
    });
  });

  it('marks a superuser by a level-0 membership only', async () => {
    const root = store.add({ user_cuid: 'u-root', email: 'root@a.test' });
    root.memberships.push(membershipRow(root, 'c-a', 0));
    expect((await sut.issue('u-root'))!.payload.ctx.isSuperUser).toBe(true);
  });

  it('issues nothing for a user that does not exist', async () => {
    expect(await sut.issue('u-nobody')).toBeUndefined();
  });

  it('answers MISSING without a cookie and INVALID for one that is not ours', async () => {
    ada();
    expect(await sut.check(undefined)).toEqual({ ok: false, reason: 'MISSING' });
    expect(await sut.check('not-a-cookie')).toEqual({ ok: false, reason: 'INVALID' });
    const other = make(withKey());
    const foreign = (await other.issue('u-ada'))!.cookie;
    expect(await sut.check(foreign)).toEqual({ ok: false, reason: 'INVALID' });
    // One character changed: authenticated encryption refuses it.
    const cookie = (await sut.issue('u-ada'))!.cookie;
    const tampered = cookie.slice(0, -2) + (cookie.at(-2) === 'A' ? 'B' : 'A') + cookie.at(-1);
    expect(await sut.check(tampered)).toEqual({ ok: false, reason: 'INVALID' });
  });

  it('stops granting a session when the user is deactivated, their epoch moves, or the user is gone; a kept cookie too', async () => {
    const user = ada();
    const { cookie } = (await sut.issue('u-ada'))!;
    // Twice: the second check answers from the opened-cookie cache, which must not skip the rules.
    expect((await sut.check(cookie)).ok).toBe(true);
    expect((await sut.check(cookie)).ok).toBe(true);
    user.inactive = true;
    expect(await sut.check(cookie)).toEqual({ ok: false, reason: 'INACTIVE' });
    user.inactive = false;
    expect((await sut.check(cookie)).ok).toBe(true);
    user.session_epoch += 1; // a password or membership change
    expect(await sut.check(cookie)).toEqual({ ok: false, reason: 'REVOKED' });
    expect(await sut.isStillValid((await sut.issue('u-ada'))!.payload)).toBe(true);
    store.users.delete('u-ada');
    expect(await sut.check(cookie)).toEqual({ ok: false, reason: 'REVOKED' });
  });

  it('signs out one session: it stops at once, the user’s other session goes on, and listeners hear of it', async () => {
    ada();
    const one = (await sut.issue('u-ada'))!;
    const two = (await sut.issue('u-ada'))!;
    const heard: string[] = [];
    const stop = sut.onRevoke((sid) => heard.push(sid));
    await sut.revoke(one.payload);
    stop();
    expect(heard).toEqual([one.payload.sid]);
    expect(await sut.check(one.cookie)).toEqual({ ok: false, reason: 'REVOKED' });
    expect(await sut.isStillValid(one.payload)).toBe(false);
    expect((await sut.check(two.cookie)).ok).toBe(true);
    await sut.revoke(two.payload);
    expect(heard).toEqual([one.payload.sid]); // unsubscribed
  });

  it('answers EXPIRED once the session is older than its lifetime, before asking the database', async () => {
    ada();
    const { cookie } = (await sut.issue('u-ada'))!;
    const reads = store.revocationReads;
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now + (SESSION_MAX_AGE_SECONDS + 1) * 1000);
    expect(await sut.check(cookie)).toEqual({ ok: false, reason: 'EXPIRED' });
    expect(store.revocationReads).toBe(reads);
  });

  it('refreshes the context at the same epoch only', async () => {
    const user = ada();
    const { payload } = (await sut.issue('u-ada'))!;
    user.meta = { preferences: { language: 'fr' } };
    const refreshed = await sut.refresh(payload);
    expect(refreshed?.ctx.user.meta).toEqual({ preferences: { language: 'fr' } });
    const check = await sut.check(refreshed!.cookie);
    expect(check.ok && check.payload.ctx.user.meta).toEqual({ preferences: { language: 'fr' } });
    user.session_epoch += 1;
    expect(await sut.refresh(payload)).toBeUndefined();
  });

  it('renews after the user’s own change only at that change’s epoch, for an active user whose session was not signed out', async () => {
    const user = ada();
    const { payload } = (await sut.issue('u-ada'))!;
    user.session_epoch = 2; // the user's own password change
    const renewed = await sut.renewAfterOwnChange(payload, 2);
    expect(renewed).toBeDefined();
    expect((await sut.check(renewed!.cookie)).ok).toBe(true);
    expect(await sut.renewAfterOwnChange(payload, 1)).toBeUndefined(); // the epoch moved again since
    user.inactive = true;
    expect(await sut.renewAfterOwnChange(payload, 2)).toBeUndefined();
    user.inactive = false;
    await sut.revoke(payload);
    expect(await sut.renewAfterOwnChange(payload, 2)).toBeUndefined();
  });

  it('reads the language of a cookie without granting anything, and nothing from a foreign one', async () => {
    const user = ada();
    user.meta = { preferences: { language: 'fr' } };
    const { cookie } = (await sut.issue('u-ada'))!;
    user.inactive = true;
    expect(sut.languageMetaOf(cookie)).toEqual({ preferences: { language: 'fr' } });
    expect(sut.languageMetaOf('garbage')).toBeUndefined();
    expect(sut.languageMetaOf(undefined)).toBeUndefined();
    expect(await sut.check(cookie)).toEqual({ ok: false, reason: 'INACTIVE' });
  });
});
