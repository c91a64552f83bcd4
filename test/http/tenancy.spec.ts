import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';

/** A foreign id answers exactly like a missing id: same status, same body. */
function sameAnswer(a: { status: number; error?: unknown }, b: { status: number; error?: unknown }) {
  expect(a.status).toBe(404);
  expect(b.status).toBe(404);
  expect(a.error).toEqual(b.error);
}

describe('company scoping: another company sees nothing', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  let otherUser: { user_cuid: string };
  let otherMembership: string;
  let otherCompany: string;

  beforeAll(async () => {
    t = await startTestApp();
    for (const who of ['superuser', 'installer', 'expert', 'basic', 'other']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
    otherUser = (await as.superuser.query('user.findOne', { email: 'other@demo.local' })).data;
    const ms = (await as.superuser.query('companyMembership.manyForUser', { user_cuid: otherUser.user_cuid })).data;
    otherMembership = ms[0].membership_cuid;
    otherCompany = ms[0].company_cuid;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('user.findOne: a user of another company is as missing as an unknown email, even for a company admin', async () => {
    for (const who of ['installer', 'basic']) {
      sameAnswer(await as[who].query('user.findOne', { email: 'other@demo.local' }), await as[who].query('user.findOne', { email: 'nobody@demo.local' }));
    }
    // the reverse direction too
    sameAnswer(await as.other.query('user.findOne', { email: 'basic@demo.local' }), await as.other.query('user.findOne', { email: 'nobody@demo.local' }));
  });

  it('user.findOne: oneself always; a company admin sees the users of their company; a plain member does not', async () => {
    expect((await as.basic.query('user.findOne', { email: 'basic@demo.local' })).status).toBe(200);
    const byAdmin = await as.installer.query('user.findOne', { email: 'expert@demo.local' });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.data).toEqual({
      user_cuid: expect.any(String),
      email: 'expert@demo.local',
      name: expect.any(String),
      inactive: false,
      meta: expect.any(Object),
      notification_blacklist: [],
      portal_notification_blacklist: [],
    });
    expect((await as.basic.query('user.findOne', { email: 'expert@demo.local' })).status).toBe(404);
  });

  it('companyMembership.manyForUser: a foreign user is as missing as an unknown id', async () => {
    for (const who of ['installer', 'expert', 'basic']) {
      sameAnswer(
        await as[who].query('companyMembership.manyForUser', { user_cuid: otherUser.user_cuid }),
        await as[who].query('companyMembership.manyForUser', { user_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz' }),
      );
    }
    const own = await as.other.query('companyMembership.manyForUser', { user_cuid: otherUser.user_cuid });
    expect(own.status).toBe(200);
    expect(own.data).toHaveLength(1);
    expect(own.data[0]).toMatchObject({ company: { company_cuid: otherCompany }, role: { level: 3 }, user: { email: 'other@demo.local' } });
  });

  it("companyMembership.update: another company's membership is as missing as an unknown one", async () => {
    const roles = (await as.installer.query('role.all')).data as { role_cuid: string; level: number }[];
    const basicRole = roles.find((r) => r.level === 3)!.role_cuid;
    sameAnswer(
      await as.installer.mutate('companyMembership.update', { membership_cuid: otherMembership, role_cuid: basicRole }),
      await as.installer.mutate('companyMembership.update', { membership_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz', role_cuid: basicRole }),
    );
  });

  it('membership edit rules: an admin cannot change their own membership nor grant more than they hold', async () => {
    const session = (await as.installer.request('GET', '/api/auth/session')).body;
    const roles = (await as.installer.query('role.all')).data as { role_cuid: string; level: number }[];
    const own = await as.installer.mutate('companyMembership.update', {
      membership_cuid: session.memberships[0].membership_cuid,
      role_cuid: roles.find((r) => r.level === 2)!.role_cuid,
    });
    expect(own.status).toBe(403);
    const basicMs = (await as.basic.request('GET', '/api/auth/session')).body.memberships[0].membership_cuid;
    const escalate = await as.installer.mutate('companyMembership.update', {
      membership_cuid: basicMs,
      role_cuid: roles.find((r) => r.level === 0)!.role_cuid,
    });
    expect(escalate.status).toBe(403);
    expect(escalate.error?.message).toMatch(/above your own/);
    // the superuser cannot drop their own level-0 role
    const suSession = (await as.superuser.request('GET', '/api/auth/session')).body;
    const suOwn = await as.superuser.mutate('companyMembership.update', {
      membership_cuid: suSession.memberships[0].membership_cuid,
      role_cuid: roles.find((r) => r.level === 3)!.role_cuid,
    });
    expect(suOwn.status).toBe(403);
  });

  it('user.deactivate: a foreign user is as missing as an unknown one', async () => {
    sameAnswer(
      await as.installer.mutate('user.deactivate', { user_cuid: otherUser.user_cuid }),
      await as.installer.mutate('user.deactivate', { user_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz' }),
    );
    const stillActive = await as.superuser.query('user.findOne', { email: 'other@demo.local' });
    expect(stillActive.data.inactive).toBe(false);
  });

  it("API tokens: listed only within one's companies; a foreign token is as missing as an unknown one", async () => {
    const foreign = await as.superuser.mutate('authToken.create', { company_cuid: otherCompany, description: 'Other company gateway' });
    expect(foreign.status).toBe(200);
    expect(foreign.data.secret).toMatch(/^ppt_/);
    const installerSession = (await as.installer.request('GET', '/api/auth/session')).body;
    const own = await as.installer.mutate('authToken.create', {
      company_cuid: installerSession.memberships[0].company_cuid,
      description: 'Demo farm gateway',
    });
    expect(own.status).toBe(200);

    const listed = (await as.installer.query('authToken.list')).data as { token_cuid: string }[];
    expect(listed.map((x) => x.token_cuid)).toContain(own.data.token_cuid);
    expect(listed.map((x) => x.token_cuid)).not.toContain(foreign.data.token_cuid);
    expect(JSON.stringify(listed)).not.toMatch(/token_hash|ppt_/);

    sameAnswer(
      await as.installer.mutate('authToken.revoke', { token_cuid: foreign.data.token_cuid }),
      await as.installer.mutate('authToken.revoke', { token_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz' }),
    );
    sameAnswer(
      await as.installer.mutate('authToken.create', { company_cuid: otherCompany, description: 'sneaky' }),
      await as.installer.mutate('authToken.create', { company_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz', description: 'sneaky' }),
    );
    // the foreign token still works for its own company
    const whoami = await new HttpClient(t.baseUrl, { authorization: `Bearer ${foreign.data.secret}` }).request('GET', '/api/auth/token');
    expect(whoami.status).toBe(200);
    expect(whoami.body.company_cuid).toBe(otherCompany);
  });

  it('API tokens authenticate machine calls until revoked; a wrong secret never does', async () => {
    const session = (await as.installer.request('GET', '/api/auth/session')).body;
    const created = await as.installer.mutate('authToken.create', {
      company_cuid: session.memberships[0].company_cuid,
      description: 'Revocable',
    });
    const secret: string = created.data.secret;
    const machine = (s: string) => new HttpClient(t.baseUrl, { authorization: `Bearer ${s}` }).request('GET', '/api/auth/token');
    expect((await machine(secret)).body).toEqual({
      token_cuid: created.data.token_cuid,
      company_cuid: session.memberships[0].company_cuid,
      description: 'Revocable',
    });
    const forged = secret.slice(0, -4) + (secret.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await machine(forged)).status).toBe(401);
    expect((await machine('garbage')).status).toBe(401);
    const revoked = await as.installer.mutate('authToken.revoke', { token_cuid: created.data.token_cuid });
    expect(revoked.data.revoked_at).toBeInstanceOf(Date);
    expect((await machine(secret)).status).toBe(401);
    const stored = await t.db.dataSource.query(`SELECT token_hash FROM auth_token WHERE token_cuid = $1`, [created.data.token_cuid]);
    expect(stored[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0].token_hash).not.toContain(secret);
  });
});
