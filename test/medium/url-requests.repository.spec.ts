import { newCuid } from '../../server/src/common/ids';
import { UrlRequestsRepository } from '../../server/src/accounts/url-requests.repository';
import { AccountUsersRepository } from '../../server/src/accounts/account-users.repository';
import { mediumWorld, type MediumWorld } from './world';

const KINDS = ['accountInvitation', 'passwordReset'];

/** url-requests.repository.ts and account-users.repository.ts on a real database: one user's links and row, nobody else's. */
describe('account links and users repositories (database)', () => {
  let w: MediumWorld;
  const links = new UrlRequestsRepository();
  const users = new AccountUsersRepository();
  let installer: { user_cuid: string };
  let other: { user_cuid: string };
  const link = (owner: { user_cuid: string }, kind = 'passwordReset', ttl = 3600) => {
    const token = { token_cuid: newCuid() };
    return links.insert(owner, w.ds, token, { kind, email: 'x@x.io', secret_sha256: 'ab'.repeat(32) }, ttl).then(() => token);
  };

  beforeAll(async () => {
    w = await mediumWorld();
    installer = { user_cuid: w.users['installer@demo.local'] };
    other = { user_cuid: w.users['other@demo.local'] };
  });
  afterAll(() => w?.db.close());

  it("reads a link by its token with its owner's current address, locked in a transaction", async () => {
    const token = await link(installer);
    expect(await links.read(token, w.ds, false)).toEqual({
      data: { kind: 'passwordReset', user_cuid: installer.user_cuid, email: 'x@x.io', secret_sha256: 'ab'.repeat(32) },
      expired: false,
      current_email: 'installer@demo.local',
    });
    await w.ds.transaction(async (tx) => expect(await links.read(token, tx, true)).toMatchObject({ expired: false }));
    await links.delete(token, w.ds);
    expect(await links.read(token, w.ds, false)).toBeUndefined();
  });

  it("dropping one user's links leaves another user's alone", async () => {
    const mine = await link(installer, 'accountInvitation');
    const theirs = await link(other);
    await links.deleteOfUser(installer, w.ds, KINDS);
    expect(await links.read(mine, w.ds, false)).toBeUndefined();
    expect(await links.read(theirs, w.ds, false)).toMatchObject({ data: { user_cuid: other.user_cuid } });
  });

  it('the sweep deletes expired links only', async () => {
    const live = await link(other);
    const dead = await link(installer, 'passwordReset', -10);
    expect(await links.read(dead, w.ds, false)).toMatchObject({ expired: true });
    await links.deleteExpired({ job: 'account-links-sweep' }, w.ds, KINDS);
    expect(await links.read(dead, w.ds, false)).toBeUndefined();
    expect(await links.read(live, w.ds, false)).toBeDefined();
  });

  it("account users: finds the active user by address, sets only the link user's password", async () => {
    expect(await users.activeByEmail({ email: ' Installer@demo.local ' }, w.ds)).toMatchObject({
      user_cuid: installer.user_cuid,
      email: 'installer@demo.local',
    });
    expect(await users.activeByEmail({ email: 'nobody@demo.local' }, w.ds)).toBeUndefined();
    const hashOf = async (u: { user_cuid: string }) =>
      (await w.ds.query<{ password: string | null }[]>(`SELECT password FROM "user" WHERE user_cuid = $1`, [u.user_cuid]))[0].password;
    const otherHash = await hashOf(other);
    await w.ds.transaction(async (tx) => {
      expect(await users.lockPasswordState(installer, tx)).toMatchObject({ inactive: false, inactivated_by_user_cuid: null });
      await users.setPassword(installer, tx, 'hash-1');
    });
    expect(await hashOf(installer)).toBe('hash-1');
    await w.ds.transaction((tx) => users.acceptInvitation(installer, tx, 'hash-2'));
    expect(await hashOf(installer)).toBe('hash-2');
    expect(await hashOf(other)).toBe(otherHash);
    expect(await users.lockPasswordState({ user_cuid: newCuid() }, w.ds)).toBeUndefined();
  });
});
