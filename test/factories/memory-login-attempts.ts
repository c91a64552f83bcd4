import type { LoginAttemptsRepository, LoginCounts, LoginIdentity, PasswordChanger } from '../../server/src/auth/login-attempts.repository';

interface Attempt extends LoginIdentity {
  ticket: string;
  at: Date;
}

interface PasswordChange {
  user_cuid: string;
  change_cuid: string;
  at: Date;
}

const oldest = (rows: readonly { at: Date }[]): Date | null => (rows.length ? new Date(Math.min(...rows.map((r) => r.at.getTime()))) : null);

/**
 * An in-memory stand-in for LoginAttemptsRepository, for the unit specs of the login throttle and
 * the password-change brake: the same methods over two arrays a spec may read. Transactions run one
 * after the other (the advisory locks of the SQL one, in one process); the locks themselves are
 * recorded, in order, in `locks`.
 */
export class MemoryLoginAttempts {
  readonly logins: Attempt[] = [];
  readonly passwordChanges: PasswordChange[] = [];
  readonly locks: string[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  /** Typed as the repository the services take. */
  asRepository(): LoginAttemptsRepository {
    return this as unknown as LoginAttemptsRepository;
  }

  transaction<T>(work: (rows: LoginAttemptsRepository) => Promise<T>): Promise<T> {
    const run = this.queue.then(() => work(this.asRepository()));
    this.queue = run.catch(() => undefined);
    return run;
  }

  lockLogin(who: LoginIdentity): Promise<void> {
    this.locks.push(`account:${who.account}`, `address:${who.address}`);
    return Promise.resolve();
  }

  countLogins(who: LoginIdentity, since: Date): Promise<LoginCounts> {
    const recent = this.logins.filter((a) => a.at > since);
    const pair = recent.filter((a) => a.account === who.account && a.address === who.address);
    const account = recent.filter((a) => a.account === who.account);
    const address = recent.filter((a) => a.address === who.address);
    return Promise.resolve({
      pair: pair.length,
      account: account.length,
      address: address.length,
      pair_oldest: oldest(pair),
      account_oldest: oldest(account),
      address_oldest: oldest(address),
    });
  }

  insertLogin(who: LoginIdentity, ticket: string, at: Date): Promise<void> {
    this.logins.push({ account: who.account, address: who.address, ticket, at });
    return Promise.resolve();
  }

  clearLogins(who: LoginIdentity, ticket: string): Promise<void> {
    this.remove((a) => (a.ticket === ticket && a.account === who.account) || (a.account === who.account && a.address === who.address));
    return Promise.resolve();
  }

  deleteLogin(who: LoginIdentity, ticket: string): Promise<void> {
    this.remove((a) => a.ticket === ticket && a.account === who.account);
    return Promise.resolve();
  }

  lockPasswordChanges(actor: PasswordChanger): Promise<void> {
    this.locks.push(`password:${actor.user_cuid}`);
    return Promise.resolve();
  }

  countPasswordChanges(actor: PasswordChanger, since: Date): Promise<{ n: number; oldest: Date | null }> {
    const recent = this.passwordChanges.filter((c) => c.user_cuid === actor.user_cuid && c.at > since);
    return Promise.resolve({ n: recent.length, oldest: oldest(recent) });
  }

  insertPasswordChange(actor: PasswordChanger, change_cuid: string, at: Date): Promise<void> {
    this.passwordChanges.push({ user_cuid: actor.user_cuid, change_cuid, at });
    return Promise.resolve();
  }

  private remove(match: (a: Attempt) => boolean): void {
    for (let i = this.logins.length - 1; i >= 0; i--) if (match(this.logins[i])) this.logins.splice(i, 1);
  }
}
