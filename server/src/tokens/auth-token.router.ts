import { z } from 'zod';
import { procedure, router } from '../trpc/trpc';
import { declareRoutes } from '../trpc/routes';
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

export const authTokenRoutes = declareRoutes({ tokens: AuthTokenService }, ({ tokens }) =>
  router({
    list: procedure
      .meta({ perm: 'authTokens.view' })
      .input(ZAuthTokenListInput)
      .output(z.array(ZAuthToken))
      .query(({ ctx, input }) => tokens.list(ctx.actor, input)),

    create: procedure
      .meta({ perm: 'authTokens.manage' })
      .input(ZAuthTokenCreateInput)
      .output(ZAuthTokenCreated)
      .mutation(({ ctx, input }) => tokens.create(ctx.actor, input)),

    revoke: procedure
      .meta({ perm: 'authTokens.manage' })
      .input(ZAuthTokenRevokeInput)
      .output(ZAuthToken)
      .mutation(({ ctx, input }) => tokens.revoke(ctx.actor, input.token_cuid)),

    // react-admin's calls: tokens of companies where the caller may manage them; delete = revoke.
    ...readProcedures({
      perm: 'authTokens.view',
      record: ZAuthTokenRecord,
      list: listParams(tokenFilters, AUTH_TOKEN_SORTS),
      reference: referenceParams(tokenFilters, AUTH_TOKEN_SORTS, ['company_cuid']),
      source: {
        getList: (actor, input, reference) => tokens.getList(actor, input, reference),
        getOne: (actor, id) => tokens.getOne(actor, id),
        getMany: (actor, ids) => tokens.getMany(actor, ids),
      },
    }),

    ...removeProcedures({
      perm: 'authTokens.manage',
      record: ZAuthTokenRecord,
      remove: (actor, ids) => tokens.revokeMany(actor, ids),
      idOf: (r) => r.token_cuid,
    }),
  }),
);
