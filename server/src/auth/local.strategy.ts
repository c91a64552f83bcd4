import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-local';
import { hashPassword, verifyPassword } from './password';
import { SessionsRepository } from './sessions.repository';

export interface LoggedInUser {
  user_cuid: string;
  email: string;
}

/** Email + password through passport-local; argon2id hashes. */
@Injectable()
export class LocalStrategy extends PassportStrategy(Strategy) {
  /** Verified against when the email is unknown, so both cases take the same time. */
  private readonly decoy = hashPassword('decoy-password-for-unknown-accounts');
  constructor(private readonly sessions: SessionsRepository) {
    super({ usernameField: 'email', passwordField: 'password' });
  }

  async validate(email: string, password: string): Promise<LoggedInUser> {
    const user = await this.sessions.signInUser({ email });
    const ok = await verifyPassword(user?.password ?? (await this.decoy), password);
    if (!user || !ok) throw new UnauthorizedException({ code: 'WRONG_CREDENTIALS', message: 'Wrong email or password' });
    if (user.inactive) throw new ForbiddenException({ code: 'INACTIVE', message: 'This account is inactive' });
    return { user_cuid: user.user_cuid, email: user.email };
  }
}
