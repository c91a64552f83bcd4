import type { TAuthToken } from './auth-token.schema';
import type { AuthTokenRepository, TokenScope } from './auth-token.repository';
import { AuthTokenService, tokenScopeOf } from './auth-token.service';
import { actor, codeOf } from '../../../test/factories/rules';

/** The rules of AuthTokenService over an in-memory stand-in of its repository (no database). */

type Row = TAuthToken & { token_hash: string };

function memoryTokens(rows: Row[]) {
  const touched: string[] = [];
  const inScope = (s: TokenScope, t: Row) => s.superuser || s.companies.includes(t.company_cuid);
  const pub = ({ token_hash: _h, ...t }: Row): TAuthToken => t;
  const repo: AuthTokenRepository = {
    transaction: async (work) => work(repo, { query: async () => [] }),
    companyExists: async (_s, id) => ['A', 'B'].includes(id),
    insert: async (s, n) => {
      const row: Row = { ...n, created_by_user_cuid: s.user_cuid, created_at: new Date(), last_used_at: null, revoked_at: null };
      rows.push(row);
      return pub(row);
    },
    list: async (s, f) =>
      rows.filter((t) => inScope(s, t) && (!f.company_cuid || t.company_cuid === f.company_cuid) && (f.include_revoked || !t.revoked_at)).map(pub),
    revoke: async (s, id) => {
      const t = rows.find((r) => r.token_cuid === id && inScope(s, r));
      if (t) t.revoked_at ??= new Date();
      return t && pub(t);
    },
    live: async (id) => {
      const t = rows.find((r) => r.token_cuid === id && !r.revoked_at && (!r.expires_at || r.expires_at > new Date()));
      return t && { token_cuid: t.token_cuid, company_cuid: t.company_cuid, description: t.description, token_hash: t.token_hash };
    },
    touch: async (id) => {
      touched.push(id);
    },
    getList: async (s) => {
      const data = rows.filter((t) => inScope(s, t)).map((t) => ({ ...pub(t), id: t.token_cuid }));
      return { data, total: data.length };
    },
    visibleMany: async (s, ids) => rows.filter((t) => ids.includes(t.token_cuid) && inScope(s, t)).map((t) => ({ ...pub(t), id: t.token_cuid })),
    revokeRecord: async (s, id) => {
      const t = await repo.revoke(s, id);
      return t && { ...t, id: t.token_cuid };
    },
  };
  return { repo, touched };
}

const INSTALLER = actor('installer', 'A', 1, true);
const BASIC = actor('basic', 'A', 3);
const OTHER = actor('other', 'B', 1, true);

describe('AuthTokenService rules (in-memory repository)', () => {
  it('the token scope: companies where the caller holds the level authTokens.manage needs', () => {
    expect(tokenScopeOf(INSTALLER)).toEqual({ user_cuid: 'installer', superuser: false, companies: ['A'] });
    expect(tokenScopeOf(BASIC).companies).toEqual([]);
    expect(tokenScopeOf(actor('root', 'A', 0)).superuser).toBe(true);
  });

  it('create: a foreign or missing company is NOT_FOUND, too low a level FORBIDDEN, a past expiry BAD_REQUEST', async () => {
    const { repo } = memoryTokens([]);
    const service = new AuthTokenService(repo);
    expect(await codeOf(service.create(INSTALLER, { company_cuid: 'B', description: 'x' }))).toBe('NOT_FOUND: Company not found');
    expect(await codeOf(service.create(actor('root', 'A', 0), { company_cuid: 'C', description: 'x' }))).toBe('NOT_FOUND: Company not found');
    expect(await codeOf(service.create(BASIC, { company_cuid: 'A', description: 'x' }))).toMatch(/^FORBIDDEN/);
    expect(await codeOf(service.create(INSTALLER, { company_cuid: 'A', description: 'x', expires_at: new Date(Date.now() - 1000) }))).toBe(
      'BAD_REQUEST: The expiry date must be in the future',
    );
  });

  it('a created token authenticates with its secret only, until revoked; a foreign caller cannot revoke it', async () => {
    const rows: Row[] = [];
    const { repo, touched } = memoryTokens(rows);
    const service = new AuthTokenService(repo);
    const created = await service.create(INSTALLER, { company_cuid: 'A', description: 'gateway' });
    expect(created.secret).toMatch(new RegExp(`^ppt_${created.token_cuid}_`));
    expect(rows[0].token_hash).not.toContain(created.secret);
    await expect(service.authenticate(`Bearer ${created.secret}`)).resolves.toEqual({
      token_cuid: created.token_cuid,
      company_cuid: 'A',
      description: 'gateway',
    });
    await service.authenticate(`Bearer ${created.secret}`);
    expect(touched).toEqual([created.token_cuid]); // at most once a minute
    // One character changed (never to itself: a secret ending in "A" stayed valid 1 time in 64).
    const tampered = created.secret.slice(0, -1) + (created.secret.endsWith('A') ? 'B' : 'A');
    await expect(service.authenticate(`Bearer ${tampered}`)).resolves.toBeUndefined();
    await expect(service.authenticate('Basic abc')).resolves.toBeUndefined();
    expect(await codeOf(service.revoke(OTHER, created.token_cuid))).toBe('NOT_FOUND: API token not found');
    await service.revoke(INSTALLER, created.token_cuid);
    await expect(service.authenticate(`Bearer ${created.secret}`)).resolves.toBeUndefined();
  });

  it("revokeMany: a token of another company is NOT_FOUND; one of the caller's company, where their level is too low, FORBIDDEN", async () => {
    const { repo } = memoryTokens([]);
    const service = new AuthTokenService(repo);
    const a = await service.create(INSTALLER, { company_cuid: 'A', description: 'a' });
    expect(await codeOf(service.revokeMany(OTHER, [a.token_cuid]))).toBe('NOT_FOUND: API token not found');
    // levels count in their own company: seen through company A, refused there (like any record)
    expect(await codeOf(service.getOne(BASIC, a.token_cuid))).toBe('FORBIDDEN: You do not have permission to do this');
    expect(await codeOf(service.revokeMany(BASIC, [a.token_cuid]))).toBe('FORBIDDEN: You do not have permission to do this');
    expect(await codeOf(service.getOne(OTHER, a.token_cuid))).toBe('NOT_FOUND: API token not found');
    await expect(service.revokeMany(INSTALLER, [a.token_cuid, a.token_cuid])).resolves.toHaveLength(1);
  });
});
