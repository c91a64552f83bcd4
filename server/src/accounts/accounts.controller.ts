import { BadRequestException, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Locale, localeOfAcceptLanguage } from '../common/locale';
import { AccountsService } from './accounts.service';
import { ZForgotBody, ZResetBody } from './accounts.schema';
import { ACCOUNT_TEXTS } from './messages';

const localeOf = (req: FastifyRequest): Locale => localeOfAcceptLanguage(req.headers['accept-language']) ?? 'en';
const bodyOf = (req: FastifyRequest): unknown => (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {});

/**
 * The public side of accounts, beside the login (JSON only and same-origin only, like it:
 * common/http-guards.ts): "forgot password" and setting a password from a mailed link.
 */
@Controller('api/auth')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  /**
   * Always the same answer (status, body, and about the same time: the lookup and the mail run
   * after it) whether the address has an active account, an inactive one or none, and whether the
   * hourly limit was reached.
   */
  @Post('forgot')
  @HttpCode(200)
  async forgot(@Req() req: FastifyRequest, @Res({ passthrough: true }) res: FastifyReply): Promise<{ ok: true; message: string }> {
    const texts = ACCOUNT_TEXTS[localeOf(req)];
    res.header('cache-control', 'no-store');
    const parsed = ZForgotBody.safeParse(bodyOf(req));
    if (!parsed.success) {
      throw new BadRequestException({ code: 'BAD_REQUEST', message: texts.enterEmail, fieldErrors: [{ path: 'email', message: texts.enterEmail }] });
    }
    await this.accounts.requestReset(
      parsed.data.email,
      { host: req.headers.host, protocol: req.protocol, address: req.ip ?? 'unknown' },
      localeOfAcceptLanguage(req.headers['accept-language']),
    );
    return { ok: true, message: texts.forgotSent };
  }

  /** A new password from an invitation or reset link. Nobody is signed in: the answer sends the person to the login. */
  @Post('reset')
  @HttpCode(200)
  async reset(@Req() req: FastifyRequest, @Res({ passthrough: true }) res: FastifyReply): Promise<{ ok: true; message: string; redirectTo: string }> {
    const texts = ACCOUNT_TEXTS[localeOf(req)];
    res.header('cache-control', 'no-store');
    const parsed = ZResetBody.safeParse(bodyOf(req));
    if (!parsed.success) {
      const fieldErrors = parsed.error.issues.map((i) => {
        const path = i.path.map(String).join('.');
        if (path !== 'password') return { path, message: texts.linkInvalid };
        const message = i.code === 'too_big' ? texts.passwordTooLong : texts.passwordTooShort;
        return { path, message };
      });
      const tokenBad = fieldErrors.some((f) => f.path !== 'password');
      throw new BadRequestException(
        tokenBad ? { code: 'INVALID_LINK', message: texts.linkInvalid } : { code: 'BAD_REQUEST', message: fieldErrors[0].message, fieldErrors },
      );
    }
    const outcome = await this.accounts.completeReset(parsed.data.token, parsed.data.password);
    if (!outcome.ok) throw new BadRequestException({ code: 'INVALID_LINK', message: texts.linkInvalid });
    return { ok: true, message: texts.passwordSet, redirectTo: '/auth/login' };
  }
}
