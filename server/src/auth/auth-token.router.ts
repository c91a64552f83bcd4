import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { procedure, router } from '../trpc/trpc';
import {
  ZAuthToken,
  ZAuthTokenCreated,
  ZAuthTokenCreateInput,
  ZAuthTokenListInput,
  ZAuthTokenRevokeInput,
} from './auth-token.schema';
import { AuthTokenService } from './auth-token.service';

@Injectable()
export class AuthTokenRouter {
  constructor(private readonly tokens: AuthTokenService) {}

  readonly router = router({
    list: procedure
      .meta({ perm: 'authTokens.view' })
      .input(ZAuthTokenListInput)
      .output(z.array(ZAuthToken))
      .query(({ ctx, input }) => this.tokens.list(ctx.actor, input)),

    create: procedure
      .meta({ perm: 'authTokens.manage' })
      .input(ZAuthTokenCreateInput)
      .output(ZAuthTokenCreated)
      .mutation(({ ctx, input }) => this.tokens.create(ctx.actor, input)),

    revoke: procedure
      .meta({ perm: 'authTokens.manage' })
      .input(ZAuthTokenRevokeInput)
      .output(ZAuthToken)
      .mutation(({ ctx, input }) => this.tokens.revoke(ctx.actor, input.token_cuid)),
  });
}
