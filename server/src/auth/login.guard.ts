import { BadRequestException, ExecutionContext, HttpException, HttpStatus, Injectable, UnauthorizedException } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LoginDto } from './login.dto';
import { LoginThrottle } from './login-throttle';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Validates the body, applies the brute-force brake, then lets passport-local check the password. */
@Injectable()
export class LoginGuard extends AuthGuard('local') {
  constructor(private readonly throttle: LoginThrottle) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const res = http.getResponse<FastifyReply>();
    const body = req.body ?? {};
    // A JSON array, number or boolean is no login form (class-transformer would choke on it).
    const dto = plainToInstance(LoginDto, typeof body === 'object' && !Array.isArray(body) ? body : {});
    const problems = validateSync(dto, { forbidUnknownValues: false });
    if (problems.length) {
      throw new BadRequestException({
        code: 'BAD_REQUEST',
        message: 'Enter your email and password',
        fieldErrors: problems.map((p) => ({ path: p.property, message: Object.values(p.constraints ?? {})[0] })),
      });
    }
    const address = req.ip ?? 'unknown';
    // Counted before the password is checked: concurrent guesses cannot all pass the brake at once.
    const verdict = await this.throttle.reserve(dto.email, address);
    if (verdict.blocked) {
      res.header('retry-after', String(verdict.retryAfterSeconds));
      throw new HttpException(
        { code: 'TOO_MANY_REQUESTS', message: 'Too many sign-in attempts. Try again later.', retryAfterSeconds: verdict.retryAfterSeconds },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    if (verdict.delayMs) await sleep(verdict.delayMs);
    try {
      const ok = (await super.canActivate(context)) as boolean;
      await this.throttle.succeed(verdict.ticket);
      return ok;
    } catch (error) {
      // A wrong password keeps its reservation as the failure; anything else gives it back.
      if (!(error instanceof UnauthorizedException)) await this.throttle.release(verdict.ticket);
      throw error;
    }
  }

  /** passport's own "missing credentials" and our strategy errors pass through unchanged. */
  override handleRequest<T>(err: Error | null, user: T): T {
    if (err) throw err;
    if (!user) throw new UnauthorizedException({ code: 'WRONG_CREDENTIALS', message: 'Wrong email or password' });
    return user;
  }
}
