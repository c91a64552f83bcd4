import { z } from 'zod';
import { procedure, router } from '../trpc/trpc';
import { declareRoutes } from '../trpc/routes';
import { listParams, referenceParams, ZBoolFilter } from '../crud/list-query';
import { readProcedures, removeProcedures } from '../crud/procedures';
import { ZCuid } from '../users/users.schema';
import { MEMBERSHIP_SORTS, ZManyForUserInput, ZMembership, ZMembershipCreateParams, ZMembershipRecord, ZMembershipUpdateAny } from './companies.schema';
import { MembershipsService } from './memberships.service';

const membershipFilters = {
  company_cuid: ZCuid.optional(),
  user_cuid: ZCuid.optional(),
  role_cuid: ZCuid.optional(),
  is_company_admin: ZBoolFilter.optional(),
};
const ZMembershipListParams = listParams(membershipFilters, MEMBERSHIP_SORTS);
const ZMembershipReferenceParams = referenceParams(membershipFilters, MEMBERSHIP_SORTS, ['company_cuid', 'user_cuid', 'role_cuid']);

export const companyMembershipRoutes = declareRoutes({ memberships: MembershipsService }, ({ memberships }) =>
  router({
    /** Spec §7 `companyMembership manyForUser` by user_cuid. */
    manyForUser: procedure
      .meta({ perm: 'session.self' })
      .input(ZManyForUserInput)
      .output(z.array(ZMembership))
      .query(({ ctx, input }) => memberships.manyForUser(ctx.actor, input.user_cuid)),

    /**
     * Role or admin flag of one membership (spec §6 membership edit). Takes the original
     * `{membership_cuid, role_cuid?, is_company_admin?}` (answers the nested membership) or
     * react-admin's `{id, data}` (answers `{data: record}`).
     */
    update: procedure
      .meta({ perm: 'memberships.edit' })
      .input(ZMembershipUpdateAny)
      .output(z.union([ZMembership, z.object({ data: ZMembershipRecord })]))
      .mutation(({ ctx, input }) =>
        input.kind === 'legacy' ? memberships.update(ctx.actor, input.input) : memberships.updateRecord(ctx.actor, input.id, input.data),
      ),

    // react-admin's calls; reads are for those who may view users (company admins).
    ...readProcedures({
      perm: 'users.view',
      record: ZMembershipRecord,
      list: ZMembershipListParams,
      reference: ZMembershipReferenceParams,
      source: {
        getList: (actor, input, reference) => memberships.list(actor, input, reference),
        getOne: (actor, id) => memberships.getOne(actor, id),
        getMany: (actor, ids) => memberships.getMany(actor, ids),
      },
    }),

    create: procedure
      .meta({ perm: 'memberships.edit' })
      .input(ZMembershipCreateParams)
      .output(z.object({ data: ZMembershipRecord }))
      .mutation(({ ctx, input }) => memberships.create(ctx.actor, input.data)),

    ...removeProcedures({
      perm: 'memberships.edit',
      record: ZMembershipRecord,
      remove: (actor, ids) => memberships.remove(actor, ids),
      idOf: (m) => m.membership_cuid,
    }),
  }),
);
