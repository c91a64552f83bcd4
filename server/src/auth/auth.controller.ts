import { Controller, Get, HttpCode, Post, Req, Res, UnauthorizedException, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from './cookies';
import type { LoggedInUser } from './local.strategy';
import { LoginGuard } from './login.guard';
import type { TSessionContext } from './session.schema';
import { SessionService, type SessionFailure } from './session.service';

const FAILURE_MESSAGES: Record<SessionFailure, string> = {
  MISSING: 'Not signed in',
  INVALID: 'The session is not valid; sign in again',
  EXPIRED: 'The session has expired; sign in again',
  REVOKED: 'The session has ended; sign in again',
  INACTIVE: 'This account is inactive',
};

/** The REST side of sessions: login, the session check the browser makes every second, logout. */
@Controller('api/auth')
export class AuthController {
  constructor(private readonly sessions: SessionService) {}

  @Post('login')
  @HttpCode(200)
  @UseGuards(LoginGuard)
  async login(@Req() req: FastifyRequest, @Res({ passthrough: true }) res: FastifyReply): Promise<TSessionContext> {
    const user = (req as FastifyRequest & { user?: LoggedInUser }).user!;
    const issued = await this.sessions.issue(user.user_cuid);
    if (!issued) throw new UnauthorizedException({ code: 'WRONG_CREDENTIALS', message: 'Wrong email or password' });
    setSessionCookie(req, res, issued.cookie);
    return issued.payload.ctx;
  }

  /**
   * Spec §3.1 context for a valid cookie; 401 otherwise, and a failing cookie is deleted.
   * A context answer carries an ETag and `private, no-cache`, and is a bodiless 304 while the
   * caller's If-None-Match still matches (conditionalGet in app.ts): the check runs every second.
   */
  @Get('session')
  async session(@Req() req: FastifyRequest, @Res({ passthrough: true }) res: FastifyReply): Promise<TSessionContext> {
    const cookie = readSessionCookie(req);
    const check = await this.sessions.check(cookie);
    res.header('cache-control', 'no-store');
    if (!check.ok) {
      if (cookie) clearSessionCookie(req, res);
      throw new UnauthorizedException({ code: check.reason, message: FAILURE_MESSAGES[check.reason] });
    }
    return check.payload.ctx;
  }

  @Post('logout')
  @HttpCode(200)
  async logout(@Req() req: FastifyRequest, @Res({ passthrough: true }) res: FastifyReply): Promise<{ ok: true; redirectTo: string }> {
    const check = await this.sessions.check(readSessionCookie(req));
    if (check.ok) await this.sessions.revoke(check.payload);
    clearSessionCookie(req, res);
    return { ok: true, redirectTo: '/auth/login' };
  }
}
