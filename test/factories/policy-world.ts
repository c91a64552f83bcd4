import type { DataSource } from 'typeorm';
import { SessionService } from '../../server/src/auth/session.service';
import { SESSION_COOKIE } from '../../server/src/auth/session-cookie';
import { newCuid } from '../../server/src/common/ids';
import { TrpcService } from '../../server/src/api/trpc.module';
import type { TestApp } from './app';
import { HttpClient } from './http-client';

/**
 * The world of the policy tests (test/policy): four companies seen from a member of `own`.
 *
 *   own           the actor's company (every actor is a member of it, or of a fresh "home" company)
 *   foreign       no relation at all with own
 *   sharedRO      owns a system shared with own, read-only (system_sharing.change = false)
 *   sharedChange  owns a system shared with own with change (system_sharing.change = true)
 *
 * Actors are made per case (a fresh user with one membership and a session minted by the app's
 * SessionService, no password hashing), so a mutation that bumps the actor's session epoch
 * (company create, membership change …) never disturbs another case.
 */
export type Relation = 'own' | 'foreign' | 'sharedRO' | 'sharedChange';
export const RELATIONS: readonly Relation[] = ['own', 'foreign', 'sharedRO', 'sharedChange'];
export type Level = 0 | 1 | 2 | 3;
export const LEVELS: readonly Level[] = [0, 1, 2, 3];

/** Marker in the name of everything made for the foreign company: no answer may contain it. */
export const FOREIGN_MARK = 'FOREIGNMARK';

let counter = 0;
/** A short unique lower-case token (valid in slugs, controller ids and e-mail addresses). */
export const uniq = (prefix = 'p'): string => `${prefix}${process.pid.toString(36)}x${(++counter).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export interface CompanyPlace {
  company_cuid: string;
  /** A site of the company. */
  site_cuid: string;
  /** A system owned by the company (shared with own as the relation says). */
  system_cuid: string;
}

export class PolicyWorld {
  readonly ds: DataSource;
  readonly sessions: SessionService;
  roles = new Map<number, string>();
  places = {} as Record<Relation, CompanyPlace>;
  /** A level-0 client in a company of its own, to make targets over HTTP. */
  superClient!: HttpClient;
  /** Every company whose rows no non-superuser of own may read or change. */
  readonly foreignCompanies = new Set<string>();

  constructor(readonly t: TestApp) {
    this.ds = t.db.dataSource;
    this.sessions = t.app.get(SessionService);
  }

  /** The app's real router (for the meta-test and the fuzz test). */
  appRouter(): unknown {
    return this.t.app.get(TrpcService).appRouter;
  }

  async build(): Promise<void> {
    const roles = await this.ds.query<{ role_cuid: string; level: number }[]>(`SELECT role_cuid, level FROM role`);
    for (const r of roles) this.roles.set(Number(r.level), r.role_cuid);
    const ops = await this.company('Policy Ops');
    this.superClient = await this.actor(0, true, ops);
    for (const rel of ['own', 'foreign', 'sharedRO', 'sharedChange'] as const) {
      const company_cuid = await this.company(rel === 'foreign' ? `${FOREIGN_MARK} Co` : `Policy ${rel}`);
      if (rel === 'foreign') this.foreignCompanies.add(company_cuid);
      const site_cuid = await this.site(company_cuid, rel);
      const system_cuid = await this.system(company_cuid, rel, site_cuid);
      if (rel === 'sharedRO' || rel === 'sharedChange') await this.share(system_cuid, this.places.own.company_cuid, rel === 'sharedChange');
      this.places[rel] = { company_cuid, site_cuid, system_cuid };
    }
  }

  /** The name prefix of records made for a relation (foreign ones carry FOREIGN_MARK). */
  label(rel: Relation): string {
    return rel === 'foreign' ? `${FOREIGN_MARK} ${uniq()}` : `${rel} ${uniq()}`;
  }

  async company(name: string): Promise<string> {
    const company_cuid = newCuid();
    await this.ds.query(`INSERT INTO company (company_cuid, name) VALUES ($1, $2)`, [company_cuid, name]);
    return company_cuid;
  }

  /** A fresh company in the given relation to `home` (a system shared with home for the shared ones). */
  async companyFor(rel: Relation, home: string): Promise<string> {
    if (rel === 'own') return home;
    const company_cuid = await this.company(this.label(rel));
    if (rel === 'foreign') this.foreignCompanies.add(company_cuid);
    else {
      const system_cuid = await this.system(company_cuid, rel, null);
      await this.share(system_cuid, home, rel === 'sharedChange');
    }
    return company_cuid;
  }

  async site(company_cuid: string, rel: Relation): Promise<string> {
    const site_cuid = newCuid();
    await this.ds.query(`INSERT INTO site (site_cuid, name, company_cuid) VALUES ($1, $2, $3)`, [site_cuid, this.label(rel), company_cuid]);
    return site_cuid;
  }

  async system(company_cuid: string, rel: Relation, site_cuid: string | null): Promise<string> {
    const system_cuid = newCuid();
    await this.ds.query(`INSERT INTO system (system_cuid, company_cuid, name, timezone, site_cuid) VALUES ($1, $2, $3, 'UTC', $4)`, [
      system_cuid,
      company_cuid,
      this.label(rel),
      site_cuid,
    ]);
    return system_cuid;
  }

  async share(system_cuid: string, company_cuid: string, change: boolean): Promise<void> {
    await this.ds.query(`INSERT INTO system_sharing (company_cuid, system_cuid, change) VALUES ($1, $2, $3)`, [company_cuid, system_cuid, change]);
  }

  /** A fresh system of the relation's company (shared with own like the relation's system). */
  async freshSystem(rel: Relation): Promise<string> {
    const system_cuid = await this.system(this.places[rel].company_cuid, rel, null);
    if (rel === 'sharedRO' || rel === 'sharedChange') await this.share(system_cuid, this.places.own.company_cuid, rel === 'sharedChange');
    return system_cuid;
  }

  /** A user with one membership; returns the user's cuid and membership cuid. */
  async user(
    level: Level,
    admin: boolean,
    company_cuid: string,
    rel: Relation = 'own',
  ): Promise<{ user_cuid: string; membership_cuid: string; email: string }> {
    const user_cuid = newCuid();
    const membership_cuid = newCuid();
    const email = `${uniq(rel === 'foreign' ? 'foreignmark' : 'u')}@policy.test`;
    await this.ds.query(`INSERT INTO "user" (user_cuid, email, password, name) VALUES ($1, $2, NULL, $3)`, [user_cuid, email, this.label(rel)]);
    await this.ds.query(`INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid, is_company_admin) VALUES ($1, $2, $3, $4, $5)`, [
      membership_cuid,
      this.roles.get(level),
      user_cuid,
      company_cuid,
      admin,
    ]);
    return { user_cuid, membership_cuid, email };
  }

  /** One more membership for an existing user (users of several companies). */
  async membership(user_cuid: string, company_cuid: string, level: Level, admin: boolean): Promise<string> {
    const membership_cuid = newCuid();
    await this.ds.query(`INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid, is_company_admin) VALUES ($1, $2, $3, $4, $5)`, [
      membership_cuid,
      this.roles.get(level),
      user_cuid,
      company_cuid,
      admin,
    ]);
    return membership_cuid;
  }

  /**
   * A user of two companies: `level` in `company_cuid` (not admin), and `otherLevel` (admin) in a
   * fresh company of nobody else. Returns the user, their membership in `company_cuid` and the other company.
   */
  async twoCompanyUser(
    level: Level,
    company_cuid: string,
    rel: Relation,
    otherLevel: Level,
  ): Promise<{ user_cuid: string; membership_cuid: string; email: string; other: string }> {
    const u = await this.user(level, false, company_cuid, rel);
    const other = await this.company(`second ${uniq()}`);
    await this.membership(u.user_cuid, other, otherLevel, true);
    return { ...u, other };
  }

  /** A user without any membership. */
  async bareUser(): Promise<string> {
    const user_cuid = newCuid();
    await this.ds.query(`INSERT INTO "user" (user_cuid, email, password, name) VALUES ($1, $2, NULL, 'bare')`, [user_cuid, `${uniq('b')}@policy.test`]);
    return user_cuid;
  }

  /** A signed-in client for an existing user (the cookie is minted by the app's own SessionService). */
  async signIn(user_cuid: string): Promise<HttpClient> {
    const issued = await this.sessions.issue(user_cuid);
    if (!issued) throw new Error(`cannot issue a session for ${user_cuid}`);
    // the matrix judges answers, not connections: a reset kept-alive socket is sent again once
    const client = new HttpClient(this.t.baseUrl, {}, true);
    client.cookies.set(SESSION_COOKIE, encodeURIComponent(issued.cookie));
    return client;
  }

  /** A fresh signed-in actor: a new user of `company_cuid` (own by default) at `level`. */
  async actor(level: Level, admin: boolean, company_cuid = this.places.own?.company_cuid): Promise<HttpClient & { user_cuid?: string }> {
    const u = await this.user(level, admin, company_cuid);
    const client = (await this.signIn(u.user_cuid)) as HttpClient & { user_cuid?: string };
    client.user_cuid = u.user_cuid;
    return client;
  }

  async setInactive(user_cuid: string): Promise<void> {
    await this.ds.query(`UPDATE "user" SET inactive = true, inactivated_at = now() WHERE user_cuid = $1`, [user_cuid]);
  }

  /**
   * A checksum of every row that belongs to the given companies: rows with their company_cuid,
   * rows of their systems, controllers, devices and members.
   */
  async checksumOf(companies: readonly string[]): Promise<Record<string, string>> {
    const cols = await this.ds.query<{ table_name: string; cols: string[] }[]>(
      `SELECT table_name, array_agg(column_name::text) AS cols FROM information_schema.columns
        WHERE table_schema = 'public' GROUP BY table_name ORDER BY table_name`,
    );
    const out: Record<string, string> = {};
    const sys = `(SELECT system_cuid FROM system WHERE company_cuid = ANY($1::varchar[]))`;
    for (const { table_name, cols: c } of cols) {
      if (table_name === 'revoked_session' || table_name === 'migrations') continue;
      const conds: string[] = [];
      if (c.includes('company_cuid')) conds.push(`t.company_cuid = ANY($1::varchar[])`);
      if (c.includes('system_cuid')) conds.push(`t.system_cuid IN ${sys}`);
      if (c.includes('user_cuid') && table_name !== 'company_membership')
        conds.push(`t.user_cuid IN (SELECT user_cuid FROM company_membership WHERE company_cuid = ANY($1::varchar[]))`);
      if (c.includes('controller_id') && table_name !== 'controller')
        conds.push(`t.controller_id IN (SELECT controller_id FROM controller WHERE company_cuid = ANY($1::varchar[]))`);
      if (c.includes('entity_cuid') && table_name !== 'entity') conds.push(`t.entity_cuid IN (SELECT entity_cuid FROM entity WHERE system_cuid IN ${sys})`);
      if (!conds.length) continue;
      const [{ n, h }] = await this.ds.query<{ n: number; h: string }[]>(
        `SELECT count(*)::int AS n, md5(coalesce(string_agg(row_to_json(t)::text, '|' ORDER BY row_to_json(t)::text), '')) AS h
           FROM "${table_name}" t WHERE ${conds.join(' OR ')}`,
        [[...companies]],
      );
      if (n > 0) out[table_name] = `${n}:${h}`;
    }
    return out;
  }

  /**
   * A checksum of every table (bookkeeping of sessions and revocations excluded). Tables the
   * clock empties (login attempts, password changes, budget uses, reset requests: swept once
   * their window has passed) are compared only on rows at or after `since`, so a sweep during a
   * long test is not taken for a write, while any row a request adds still counts.
   */
  async checksumAll(exclude: readonly string[] = ['revoked_session', 'migrations'], since?: Date): Promise<Record<string, string>> {
    const tables = await this.ds.query<{ table_name: string }[]>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    const out: Record<string, string> = {};
    for (const { table_name } of tables) {
      if (exclude.includes(table_name)) continue;
      const swept = since !== undefined && SWEPT_BY_CLOCK.includes(table_name);
      const [{ n, h }] = await this.ds.query<{ n: number; h: string }[]>(
        `SELECT count(*)::int AS n, md5(coalesce(string_agg(row_to_json(t)::text, '|' ORDER BY row_to_json(t)::text), '')) AS h FROM "${table_name}" t${swept ? ' WHERE t.at >= $1' : ''}`,
        swept ? [since] : [],
      );
      out[table_name] = `${n}:${h}`;
    }
    return out;
  }
}

/** Tables whose rows the app's sweepers delete once their `at` is past a window (OldRowsSweeper). */
export const SWEPT_BY_CLOCK: readonly string[] = ['login_attempt', 'password_change', 'budget_use', 'account_request'];

/** Runs `work` over `items` with at most `width` at a time. */
export async function pool<T>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      await work(items[i], i);
    }
  });
  await Promise.all(runners);
}

/** Every procedure of a tRPC router with its type ('query' | 'mutation' | 'subscription'). */
export function listProcedures(appRouter: unknown): Map<string, { type: string; perm?: string; inputs: unknown[] }> {
  type Node = { _def?: { type?: string; meta?: { perm?: string }; inputs?: unknown[] } } & Record<string, unknown>;
  const out = new Map<string, { type: string; perm?: string; inputs: unknown[] }>();
  const walk = (record: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(record)) {
      const node = value as Node;
      const path = prefix ? `${prefix}.${key}` : key;
      if (node?._def?.type && ['query', 'mutation', 'subscription'].includes(node._def.type)) {
        out.set(path, { type: node._def.type, perm: node._def.meta?.perm, inputs: node._def.inputs ?? [] });
      } else if (node && typeof node === 'object') {
        walk(node, path);
      }
    }
  };
  walk((appRouter as { _def: { procedures: Record<string, unknown> } })._def.procedures, '');
  return out;
}
