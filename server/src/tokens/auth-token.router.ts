import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { procedure, router } from '../trpc/trpc';
import { listParams, referenceParams, ZBoolFilter } from '../crud/list-query';
import { readProcedures, removeProcedures } from '../crud/procedures';
import { ZCuid } from '../users/users.schema';
import {
  AUTH_TOKEN_SORTS,
  ZAuthTokenRecord,
  ZAuthToken,
  ZAuthTokenCreated,
  ZAuthTokenCreateInput,
  ZAuthTokenListInput,
  ZAuthTokenRevokeInput,
} from './auth-token.schema';
import { AuthTokenService } from './auth-token.service';

const tokenFilters = { company_cuid: ZCuid.optional(), revoked: ZBoolFilter.optional() };

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

    // react-admin's calls: tokens of companies where the caller may manage them; delete = revoke.
    ...readProcedures({
      perm: 'authTokens.view',
      record: ZAuthTokenRecord,
      list: listParams(tokenFilters, AUTH_TOKEN_SORTS),
      reference: referenceParams(tokenFilters, AUTH_TOKEN_SORTS, ['company_cuid']),
      source: {
        getList: (actor, input, reference) => this.tokens.getList(actor, input, reference),
        getOne: (actor, id) => this.tokens.getOne(actor, id),
        getMany: (actor, ids) => this.tokens.getMany(actor, ids),
      },
    }),

    ...removeProcedures({
      perm: 'authTokens.manage',
      record: ZAuthTokenRecord,
      remove: (actor, ids) => this.tokens.revokeMany(actor, ids),
      idOf: (r) => r.token_cuid,
    }),
  });
}
