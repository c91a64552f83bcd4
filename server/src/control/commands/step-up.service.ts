import { Injectable } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import type { Actor } from '../../../../shared/access/policy';
import { LoginThrottle } from '../../auth/login-throttle';
import { verifyPassword } from '../../auth/password';
import type { TSessionPayload } from '../../auth/session.schema';
import { fieldError } from '../../common/field-error';
import type { SystemJob } from '../../common/system-job';
import { AppConfig } from '../../config/config';
import { stepUpRequired } from '../../trpc/errors';
import { StepUpsRepository } from './step-ups.repository';

/**
 * Step-up for dangerous commands (docs/control.md): a password given by this session within
 * STEP_UP_MAX_AGE_SECONDS, else the one given now, braked like a login.
 */
@Injectable()
export class StepUpService {
  constructor(
    private readonly rows: StepUpsRepository,
    private readonly config: AppConfig,
    private readonly throttle: LoginThrottle,
  ) {}

  /** Resolves when the caller may send a dangerous command now; else STEP_UP_REQUIRED, a field error, or TOO_MANY_REQUESTS. */
  async require(actor: Actor, session: TSessionPayload, password: string | undefined, address: string): Promise<void> {
    if (await this.rows.recent(actor, session, this.config.STEP_UP_MAX_AGE_SECONDS)) return;
    if (!password) throw stepUpRequired('Enter your password again to send this command');
    const user = await this.rows.signIn(actor);
    if (!user) throw fieldError(['password'], 'The password is not right');
    const verdict = await this.throttle.reserve(user.email, address);
    if (verdict.blocked) throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: `Too many wrong passwords. Try again in ${verdict.retryAfterSeconds} s.` });
    let right: boolean;
    try {
      right = await verifyPassword(user.password, password);
    } catch (e) {
      await this.throttle.release(verdict.ticket);
      throw e;
    }
    // A wrong password keeps its reserved attempt: it counts as a failure.
    if (!right) throw fieldError(['password'], 'The password is not right');
    await this.throttle.succeed(verdict.ticket);
    await this.rows.record(actor, session);
  }

  /** Forgets step-ups too old to count. */
  sweep(job: SystemJob): Promise<void> {
    return this.rows.sweep(job, this.config.STEP_UP_MAX_AGE_SECONDS);
  }
}
