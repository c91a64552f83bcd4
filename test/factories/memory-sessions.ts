import type { DataSource } from 'typeorm';
import type {
  MembershipRow,
  RevocationRow,
  SessionKey,
  SessionOwner,
  SessionsRepository,
  SessionUserRow,
  SignInIdentity,
  SignInUserRow,
} from '../../server/src/auth/sessions.repository';

/** A user as the in-memory stand-in keeps it: the row, its password hash and memberships. */
export interface MemoryUser extends SessionUserRow {
  password: string | null;
  memberships: MembershipRow[];
}

/**
 * An in-memory stand-in for SessionsRepository, for the unit specs of the session rules: the same
 * methods over a map of users and a set of revoked sessions, which a spec changes directly (a
 * password change or a membership change bumps `session_epoch`, as the database triggers do).
 */
export class MemorySessions {
  readonly users = new Map<string, MemoryUser>();
  readonly revoked = new Set<string>();
  /** How many revocation lookups reached the "database" (the batcher groups them). */
  revocationReads = 0;

  add(user: Partial<MemoryUser> & { user_cuid: string; email: string }): MemoryUser {
    const row: MemoryUser = { name: user.email, phone: null, inactive: false, meta: null, session_epoch: 1, password: null, memberships: [], ...user };
    this.users.set(row.user_cuid, row);
    return row;
  }

  /** Typed as the repository the services take. */
  asRepository(): SessionsRepository {
    return this as unknown as SessionsRepository;
  }

  signInUser(who: SignInIdentity): Promise<SignInUserRow | undefined> {
    const u = [...this.users.values()].find((x) => x.email === who.email.toLowerCase());
    return Promise.resolve(u && { user_cuid: u.user_cuid, email: u.email, password: u.password, inactive: u.inactive });
  }

  user(owner: SessionOwner): Promise<SessionUserRow | undefined> {
    const u = this.users.get(owner.user_cuid);
    return Promise.resolve(
      u && { user_cuid: u.user_cuid, email: u.email, name: u.name, phone: u.phone, inactive: u.inactive, meta: u.meta, session_epoch: u.session_epoch },
    );
  }

  memberships(owner: SessionOwner): Promise<MembershipRow[]> {
    return Promise.resolve([...(this.users.get(owner.user_cuid)?.memberships ?? [])]);
  }

  notificationBlacklist(): Promise<[]> {
    return Promise.resolve([]);
  }

  portalNotificationBlacklist(): Promise<[]> {
    return Promise.resolve([]);
  }

  revocationStates(sessions: readonly SessionKey[]): Promise<RevocationRow[]> {
    this.revocationReads += 1;
    const rows: RevocationRow[] = [];
    for (const s of sessions) {
      const u = this.users.get(s.user_cuid);
      if (u) rows.push({ user_cuid: s.user_cuid, sid: s.sid, inactive: u.inactive, session_epoch: u.session_epoch, revoked: this.revoked.has(s.sid) });
    }
    return Promise.resolve(rows);
  }

  isRevoked(session: SessionKey): Promise<boolean> {
    return Promise.resolve(this.revoked.has(session.sid));
  }

  revoke(session: SessionKey): Promise<void> {
    this.revoked.add(session.sid);
    return Promise.resolve();
  }
}

/** A data source for the services' old-rows sweepers: the unit specs never let them run. */
export const NO_DATABASE = {
  query: () => Promise.reject(new Error('no database in a unit spec')),
} as unknown as DataSource;

/** A membership row of `user` in `company` at `level`. */
export function membershipRow(user: { user_cuid: string; email: string }, company_cuid: string, level: number): MembershipRow {
  return {
    membership_cuid: `m-${user.user_cuid}-${company_cuid}`,
    role_cuid: `role-${level}`,
    user_cuid: user.user_cuid,
    company_cuid,
    is_company_admin: false,
    company_name: `Company ${company_cuid}`,
    company_url: null,
    company_logo: null,
    email: user.email,
    user_name: user.email,
    phone: null,
    inactive: false,
    meta: null,
    role_name: `Level ${level}`,
    role_level: level,
    role_description: null,
  };
}
