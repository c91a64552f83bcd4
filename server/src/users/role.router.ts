import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { procedure, router } from '../trpc/trpc';
import { ZRole } from './users.schema';
import { UsersService } from './users.service';

@Injectable()
export class RoleRouter {
  constructor(private readonly users: UsersService) {}

  readonly router = router({
    /** Spec §7 `role.all`: no input (absent or JSON null, as batched clients send it), the four roles. */
    all: procedure
      .meta({ perm: 'roles.view' })
      .input(z.union([z.void(), z.null()]))
      .output(z.array(ZRole))
      .query(() => this.users.allRoles()),
  });
}
