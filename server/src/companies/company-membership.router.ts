import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { procedure, router } from '../trpc/trpc';
import { ZManyForUserInput, ZMembership, ZMembershipUpdateInput } from './companies.schema';
import { MembershipsService } from './memberships.service';

@Injectable()
export class CompanyMembershipRouter {
  constructor(private readonly memberships: MembershipsService) {}

  readonly router = router({
    /** Spec §7 `companyMembership manyForUser` by user_cuid. */
    manyForUser: procedure
      .meta({ perm: 'session.self' })
      .input(ZManyForUserInput)
      .output(z.array(ZMembership))
      .query(({ ctx, input }) => this.memberships.manyForUser(ctx.actor, input.user_cuid)),

    update: procedure
      .meta({ perm: 'memberships.edit' })
      .input(ZMembershipUpdateInput)
      .output(ZMembership)
      .mutation(({ ctx, input }) => this.memberships.update(ctx.actor, input)),
  });
}
