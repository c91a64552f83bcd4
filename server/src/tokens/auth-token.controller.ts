import { Controller, Get, Req, UnauthorizedException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuthTokenService } from './auth-token.service';

/** The REST side of API tokens. */
@Controller('api/auth')
export class AuthTokenController {
  constructor(private readonly tokens: AuthTokenService) {}

  /** Machine callers: who does this API token speak for? */
  @Get('token')
  async token(@Req() req: FastifyRequest): Promise<{ token_cuid: string; company_cuid: string; description: string | null }> {
    const caller = await this.tokens.authenticate(req.headers.authorization);
    if (!caller) throw new UnauthorizedException({ code: 'UNAUTHORIZED', message: 'A valid API token is required' });
    return caller;
  }
}
