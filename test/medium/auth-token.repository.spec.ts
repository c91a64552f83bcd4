import { newCuid } from '../../server/src/common/ids';
import { SqlAuthTokenRepository } from '../../server/src/tokens/auth-token.repository';
import { tokenScopeOf } from '../../server/src/tokens/auth-token.service';
import { mediumWorld, type MediumWorld, PAGE } from './world';

/** auth-token.repository.ts on a real database: the rows, and who sees them. */
describe('API token repository (database)', () => {
  let w: MediumWorld;
  let repo: SqlAuthTokenRepository;
  let demoToken: string;

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new SqlAuthTokenRepository(w.ds);
    const installer = tokenScopeOf(await w.actor('installer@demo.local'));
    demoToken = newCuid();
    const row = await repo.insert(installer, {
      token_cuid: demoToken,
      description: 'gateway',
      company_cuid: w.demo,
      token_hash: 'ab'.repeat(32),
      expires_at: null,
    });
    expect(row).toEqual(
      expect.objectContaining({ token_cuid: demoToken, created_by_user_cuid: installer.user_cuid, revoked_at: null, created_at: expect.any(Date) }),
    );
    expect(row).not.toHaveProperty('token_hash');
  });
  afterAll(() => w?.db.close());

  it('the installer of the company lists and reads its tokens', async () => {
    const installer = tokenScopeOf(await w.actor('installer@demo.local'));
    expect((await repo.list(installer, {})).map((t) => t.token_cuid)).toEqual([demoToken]);
    expect((await repo.getList(installer, PAGE)).total).toBe(1);
    expect((await repo.getList(installer, { ...PAGE, filter: { q: 'GATE' } })).data).toEqual([expect.objectContaining({ id: demoToken })]);
    expect(await repo.visibleMany(installer, [demoToken])).toHaveLength(1);
  });

  it('a caller of another company, or without the level, gets nothing and revokes nothing', async () => {
    for (const email of ['other@demo.local', 'basic@demo.local']) {
      const scope = tokenScopeOf(await w.actor(email));
      expect(await repo.list(scope, { company_cuid: w.demo })).toEqual([]);
      expect(await repo.getList(scope, PAGE, { target: 'company_cuid', id: w.demo })).toEqual({ data: [], total: 0 });
      expect(await repo.visibleMany(scope, [demoToken])).toEqual([]);
      expect(await repo.revoke(scope, demoToken)).toBeUndefined();
      expect(await repo.transaction((rows) => rows.revokeRecord(scope, demoToken))).toBeUndefined();
    }
    expect(await repo.live(demoToken)).toMatchObject({ token_cuid: demoToken, company_cuid: w.demo, token_hash: 'ab'.repeat(32) });
  });

  it('touch records a use; a revoked token is no longer live and keeps its first revocation time', async () => {
    const installer = tokenScopeOf(await w.actor('installer@demo.local'));
    await repo.touch(demoToken);
    expect((await repo.list(installer, {}))[0].last_used_at).toEqual(expect.any(Date));
    const first = await repo.revoke(installer, demoToken);
    expect(first?.revoked_at).toEqual(expect.any(Date));
    expect(await repo.live(demoToken)).toBeUndefined();
    expect(await repo.list(installer, {})).toEqual([]);
    expect(await repo.list(installer, { include_revoked: true })).toHaveLength(1);
    const again = await repo.transaction((rows) => rows.revokeRecord(installer, demoToken));
    expect(again?.revoked_at).toEqual(first?.revoked_at);
    expect((await repo.getList(installer, { ...PAGE, filter: { revoked: true } })).total).toBe(1);
    // A superuser reaches every company's tokens.
    expect(await repo.list(tokenScopeOf(await w.actor('superuser@demo.local')), { include_revoked: true })).toHaveLength(1);
  });
});
