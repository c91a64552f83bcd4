import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import type { DataSource } from 'typeorm';
import { type Actor, isAdminOf, isSuperUser } from '../../../shared/access/policy';
import { Mailer } from '../alerts/channels/mailer';
import { hashPassword } from '../auth/password';
import { Budgets } from '../budgets/budgets.service';
import { translate } from '../common/messages';
import { BrandingService } from '../branding/branding.service';
import { type Locale, localeOfMeta } from '../common/locale';
import { AppConfig } from '../config/config';
import { DATA_SOURCE } from '../database/database.module';
import type { TInvitationOutcome } from '../users/users.schema';
import { type Invitee, UsersService } from '../users/users.service';
import { AccountLinks } from './account-links';
import { AccountUsersRepository } from './account-users.repository';
import { ACCOUNT_TEXTS, type AccountMail, invitationMail, resetMail, validityOf } from './messages';
import { ResetThrottle } from './reset-throttle';

/** Where a request came from: the brand of its mail and the language of a stranger. */
export interface RequestOrigin {
  host?: string;
  protocol?: string;
  address: string;
}

export type CompleteOutcome = { ok: true; kind: 'invitation' | 'reset' } | { ok: false };

/**
 * Accounts people recover on their own (docs/accounts.md): the invitation of a user created
 * without a password, "forgot password", setting a password from a one-time link, and changing
 * one's own password with the current one.
 */
@Injectable()
export class AccountsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Accounts');
  /** Forgot-password work running after its answer went out (awaited at shutdown). */
  private readonly background = new Set<Promise<void>>();
  private readonly accountUsers = new AccountUsersRepository();

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly users: UsersService,
    private readonly links: AccountLinks,
    private readonly throttle: ResetThrottle,
    private readonly mailer: Mailer,
    private readonly branding: BrandingService,
    private readonly budgets: Budgets,
  ) {}

  onModuleInit(): void {
    this.users.useInviter((invitee) => this.invite(invitee));
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.allSettled([...this.background]);
  }

  /** Resolves once the forgot-password work started so far is done (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.background.size) await Promise.allSettled([...this.background]);
  }

  private get publicUrl(): string {
    return (this.config.PUBLIC_URL || `http://localhost:${this.config.PORT}`).replace(/\/+$/, '');
  }

  private async send(to: string, mail: AccountMail) {
    return this.mailer.send({ to, ...mail });
  }

  // ---- invitation ----------------------------------------------------------------------------

  /** Mails a new invitation link; the answer (in the admin's language) says whether it went out. */
  async invite(invitee: Invitee, spent = false): Promise<TInvitationOutcome> {
    const texts = ACCOUNT_TEXTS[invitee.answerLocale];
    try {
      if (!spent) await this.spendInvitation(invitee);
      return await this.mailInvitation(invitee);
    } catch (e) {
      // A spent mail budget (429): the user exists, the admin re-sends the invitation later.
      if (e instanceof TRPCError && e.code === 'TOO_MANY_REQUESTS') return { sent: false, message: translate(e.message, invitee.answerLocale) };
      // Never a failed creation for a mail: the admin re-sends it later.
      this.logger.warn(`Invitation for user ${invitee.user_cuid} not made: ${(e as Error).message}`);
      return { sent: false, message: texts.invitationFailed(invitee.answerLocale === 'fr' ? 'erreur interne' : 'internal error') };
    }
  }

  /**
   * One invitation mail against the budgets of the admin, the address and the one company the
   * admin invites from (or TOO_MANY_REQUESTS); never the invitee's other companies.
   */
  private async spendInvitation(invitee: Invitee): Promise<void> {
    await this.budgets.spendMail({ user_cuid: invitee.invited_by, address: invitee.email, company_cuids: invitee.company_cuid ? [invitee.company_cuid] : [] });
  }

  /**
   * The company an admin resends an invitation from: `asked` when it is a company of the user where
   * the admin is an admin (a superuser: any company of the user), else the first such company; a
   * superuser who administers none of them acts from their own superuser company.
   */
  private async payingCompany(actor: Actor, user_cuid: string, asked: string | undefined, texts: (typeof ACCOUNT_TEXTS)[Locale]): Promise<string | undefined> {
    const superuser = isSuperUser(actor);
    const ofUser = await this.budgets.companiesOfUser(user_cuid);
    const mine = ofUser.filter((c) => isAdminOf(actor, c));
    if (asked !== undefined) {
      if (mine.includes(asked) || (superuser && ofUser.includes(asked))) return asked;
      throw new TRPCError({ code: 'BAD_REQUEST', message: texts.resendFromCompany });
    }
    if (mine.length) return mine[0];
    return actor.memberships.map((m) => m.company_cuid).sort()[0];
  }

  private async mailInvitation(invitee: Invitee): Promise<TInvitationOutcome> {
    const texts = ACCOUNT_TEXTS[invitee.answerLocale];
    const ttl = this.config.INVITATION_TTL_HOURS * 3600;
    const token = await this.links.issue('accountInvitation', invitee.user_cuid, invitee.email, ttl);
    const brand = await this.branding.forHost(invitee.host, invitee.protocol);
    const link = `${this.publicUrl}/auth/reset?token=${token}&welcome=1`;
    const r = await this.send(
      invitee.email,
      invitationMail(invitee.locale, { brand: brand.title, name: invitee.name, link, validity: validityOf(invitee.locale, ttl) }),
    );
    if (r.ok) return { sent: true, message: this.mailer.folder ? texts.invitationWritten : texts.invitationSent(invitee.email) };
    this.logger.warn(`Invitation mail for user ${invitee.user_cuid} not sent: ${r.reason}`);
    return { sent: false, message: texts.invitationFailed(r.reason) };
  }

  /** `account.resendInvitation`: a user who has not set a password yet gets a new link (the old one dies). */
  async resendInvitation(
    actor: Actor,
    user_cuid: string,
    answerLocale: Locale,
    origin: Omit<RequestOrigin, 'address'>,
    company_cuid?: string,
  ): Promise<TInvitationOutcome> {
    const user = await this.users.editable(actor, user_cuid);
    const texts = ACCOUNT_TEXTS[answerLocale];
    if (user.has_password) throw new TRPCError({ code: 'BAD_REQUEST', message: texts.alreadyActive });
    if (user.inactivated_by_user_cuid) throw new TRPCError({ code: 'BAD_REQUEST', message: texts.deactivated });
    const paying = await this.payingCompany(actor, user.user_cuid, company_cuid, texts);
    const invitee: Invitee = {
      user_cuid: user.user_cuid,
      email: user.email,
      name: user.name,
      locale: localeOfMeta(user.meta) ?? answerLocale,
      answerLocale,
      host: origin.host,
      protocol: origin.protocol,
      invited_by: actor.user_cuid,
      company_cuid: paying,
    };
    await this.spendInvitation(invitee); // a spent budget answers 429 here
    return this.invite(invitee, true);
  }

  // ---- forgot password -----------------------------------------------------------------------

  /**
   * Counts the request (the same work for any address) and answers; looking the address up,
   * making the link and mailing happen after the answer, so neither its content nor its time
   * says whether the address has an account.
   */
  async requestReset(email: string, origin: RequestOrigin, browserLocale: Locale | undefined): Promise<void> {
    const admitted = await this.throttle.admit(email, origin.address);
    // The address's mail budget is spent whether it has an account or not (a public flow: nothing may tell).
    if (!admitted || !(await this.budgets.trySpendMail({ address: email }))) {
      this.logger.log('A password reset request was over the hourly limit: no mail');
      return;
    }
    const work = this.mailReset(email, origin, browserLocale).catch((e: unknown) => this.logger.warn(`Password reset mail failed: ${(e as Error).message}`));
    this.background.add(work);
    void work.finally(() => this.background.delete(work));
  }

  private async mailReset(email: string, origin: RequestOrigin, browserLocale: Locale | undefined): Promise<void> {
    const user = await this.accountUsers.activeByEmail({ email }, this.ds);
    if (!user) return;
    const locale = localeOfMeta(user.meta) ?? browserLocale ?? 'en';
    const ttl = this.config.RESET_TTL_MINUTES * 60;
    const token = await this.links.issue('passwordReset', user.user_cuid, user.email, ttl);
    const brand = await this.branding.forHost(origin.host, origin.protocol);
    const link = `${this.publicUrl}/auth/reset?token=${token}`;
    const r = await this.send(user.email, resetMail(locale, { brand: brand.title, name: user.name, link, validity: validityOf(locale, ttl) }));
    if (!r.ok) this.logger.warn(`Password reset mail for user ${user.user_cuid} not sent: ${r.reason}`);
  }

  // ---- setting the password from a link ------------------------------------------------------

  /**
   * Sets the password of the link's user, once: the link is locked (FOR UPDATE) and deleted with
   * every other link of the user in the same transaction, so of two concurrent uses one fails. The
   * new password moves the user's session epoch (database trigger): every session ends. An
   * invitation also activates the account. Nobody is signed in: the user signs in with it.
   */
  async completeReset(token: string, password: string): Promise<CompleteOutcome> {
    // The hash is made outside the transaction (it takes a while), only for a link that looks alive.
    if (!(await this.links.peek(token))) return { ok: false };
    const hash = await hashPassword(password);
    return this.ds.transaction(async (tx): Promise<CompleteOutcome> => {
      const link = await this.links.lock(tx, token);
      if (!link) return { ok: false };
      const user = await this.accountUsers.lockPasswordState(link, tx);
      await this.links.use(tx, token);
      if (!user) return { ok: false };
      if (link.kind === 'accountInvitation') {
        // An invitation is for a user still waiting: not one who set a password since, nor one an admin deactivated.
        if (user.has_password || user.inactivated_by_user_cuid) return { ok: false };
        await this.accountUsers.acceptInvitation(link, tx, hash);
      } else {
        if (user.inactive) return { ok: false };
        await this.accountUsers.setPassword(link, tx, hash);
      }
      await this.links.dropAll(tx, link.user_cuid);
      return { ok: true, kind: link.kind === 'accountInvitation' ? 'invitation' : 'reset' };
    });
  }

  // ---- change with the current password ------------------------------------------------------

  /**
   * One's own password, with the current one (a wrong one is a field error on `current_password`,
   * counted by the login brake). The user's other sessions end; the one making the change is
   * re-issued (own-session renewal).
   */
  async changePassword(actor: Actor, current_password: string, new_password: string, address: string): Promise<void> {
    await this.users.update(actor, actor.user_cuid, { password: new_password, current_password }, { address });
    await this.links.dropAll(this.ds, actor.user_cuid);
  }
}
