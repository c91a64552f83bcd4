import { newCuid } from '../../server/src/common/ids';
import { AccountRequestsRepository } from '../../server/src/accounts/account-requests.repository';
import { mediumWorld, type MediumWorld } from './world';

/** account-requests.repository.ts on a real database: each requester's counts, and nobody else's. */
describe('account requests repository (database)', () => {
  let w: MediumWorld;
  let repo: AccountRequestsRepository;
  const t0 = new Date('2026-01-01T00:00:00Z');
  const before = new Date(t0.getTime() - 1000);
  const ann = { account: 'ann@x.io', address: '10.1.0.1' };
  const annElsewhere = { account: 'ann@x.io', address: '10.1.0.2' };
  const ben = { account: 'ben@x.io', address: '10.1.0.3' };

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new AccountRequestsRepository(w.ds);
  });
  afterAll(() => w?.db.close());

  it('counts requests per email and per address, inside a transaction with its locks', async () => {
    await repo.transaction(async (rows) => {
      await rows.lock(ann);
      await rows.insert(ann, newCuid(), t0);
      await rows.insert(annElsewhere, newCuid(), t0);
    });
    expect(await repo.count(ann, before)).toEqual({ account: 2, address: 1 });
    expect(await repo.count(ann, new Date(t0.getTime() + 1))).toEqual({ account: 0, address: 0 });
  });

  it("another requester's requests are never counted", async () => {
    expect(await repo.count(ben, before)).toEqual({ account: 0, address: 0 });
    await repo.insert(ben, newCuid(), t0);
    expect(await repo.count(ben, before)).toEqual({ account: 1, address: 1 });
    expect(await repo.count(ann, before)).toEqual({ account: 2, address: 1 });
  });

  it('the sweep deletes only requests older than its bound', async () => {
    await repo.insert(ben, newCuid(), new Date(t0.getTime() + 60_000));
    await w.ds.query(AccountRequestsRepository.SWEEP_ACCOUNT_REQUESTS, [new Date(t0.getTime() + 1)]);
    expect(await repo.count(ben, before)).toEqual({ account: 1, address: 1 });
    expect(await repo.count(ann, before)).toEqual({ account: 0, address: 0 });
  });
});
