import { keepOwnSession, type OwnSessionChange, ownSessionChanges } from './own-session';

/** A transaction whose user row holds `epochs` in turn (before the change, after it). */
const txWith = (...epochs: number[]) => ({
  query: jest.fn(async () => [{ session_epoch: epochs.shift() }]),
});

describe('keepOwnSession', () => {
  it("notes the new epoch when the caller's own change alone moved it", async () => {
    const store: OwnSessionChange = { user_cuid: 'u1', ep: 3 };
    await ownSessionChanges.run(store, () => keepOwnSession(txWith(3, 4), 'u1', async () => 'done'));
    expect(store.renewTo).toBe(4);
  });

  it('keeps nothing when the epoch had already moved (somebody else revoked the session meanwhile)', async () => {
    const store: OwnSessionChange = { user_cuid: 'u1', ep: 3 };
    await ownSessionChanges.run(store, () => keepOwnSession(txWith(4, 5), 'u1', async () => 'done'));
    expect(store.renewTo).toBeUndefined();
  });

  it('keeps nothing for a change to another user, or outside a request', async () => {
    const store: OwnSessionChange = { user_cuid: 'u1', ep: 3 };
    const tx = txWith(3, 4);
    await ownSessionChanges.run(store, () => keepOwnSession(tx, 'u2', async () => 'done'));
    expect(store.renewTo).toBeUndefined();
    expect(tx.query).not.toHaveBeenCalled();
    await expect(keepOwnSession(txWith(3, 4), 'u1', async () => 'alone')).resolves.toBe('alone');
  });

  it('keeps nothing when the change did not move the epoch (a name change)', async () => {
    const store: OwnSessionChange = { user_cuid: 'u1', ep: 3 };
    await ownSessionChanges.run(store, () => keepOwnSession(txWith(3, 3), 'u1', async () => 'done'));
    expect(store.renewTo).toBeUndefined();
  });
});
