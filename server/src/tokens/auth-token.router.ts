import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { procedure, router } from '../trpc/trpc';
import { ZDeleteManyParams, ZDeleteParams, ZGetManyParams, ZGetOneParams } from '../crud/crud.schema';
import { listParams, referenceParams, ZBoolFilter } from '../crud/list-query';
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
const ZTokenList = z.object({ data: z.array(ZAuthTokenRecord), total: z.number() });

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
    getList: procedure
      .meta({ perm: 'authTokens.view' })
      .input(listParams(tokenFilters, AUTH_TOKEN_SORTS))
      .output(ZTokenList)
      .query(({ ctx, input }) => this.tokens.getList(ctx.actor, input)),

    getOne: procedure
      .meta({ perm: 'authTokens.view' })
      .input(ZGetOneParams)
      .output(z.object({ data: ZAuthTokenRecord }))
      .query(({ ctx, input }) => this.tokens.getOne(ctx.actor, input.id)),

    getMany: procedure
      .meta({ perm: 'authTokens.view' })
      .input(ZGetManyParams)
      .output(z.object({ data: z.array(ZAuthTokenRecord) }))
      .query(({ ctx, input }) => this.tokens.getMany(ctx.actor, input.ids)),

    getManyReference: procedure
      .meta({ perm: 'authTokens.view' })
      .input(referenceParams(tokenFilters, AUTH_TOKEN_SORTS, ['company_cuid']))
      .output(ZTokenList)
      .query(({ ctx, input }) => this.tokens.getList(ctx.actor, input, { target: input.target, id: input.id })),

    delete: procedure
      .meta({ perm: 'authTokens.manage' })
      .input(ZDeleteParams)
      .output(z.object({ data: ZAuthTokenRecord }))
      .mutation(async ({ ctx, input }) => ({ data: (await this.tokens.revokeMany(ctx.actor, [input.id]))[0] })),

    deleteMany: procedure
      .meta({ perm: 'authTokens.manage' })
      .input(ZDeleteManyParams)
      .output(z.object({ data: z.array(z.string()) }))
      .mutation(async ({ ctx, input }) => ({ data: (await this.tokens.revokeMany(ctx.actor, input.ids)).map((r) => r.token_cuid) })),
  });
}
