import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import type { Permission } from '../auth/policy';
import { crudRouter } from '../crud/crud-router.factory';
import { CrudService } from '../crud/crud.service';
import type { ResourceDefinition } from '../crud/resource';
import { createCallerFactory, procedure, router } from '../trpc/trpc';
import { BrandingService } from './branding.service';
import { domainResource, rootDomainResource } from './domain.resources';

const WRITES = ['create', 'update', 'updateMany', 'delete', 'deleteMany'] as const;

/**
 * `rootDomain` and `domain`: the generated CRUD routers, with every write followed (after its
 * commit) by dropping the cached brands, so the next page load shows the new branding.
 * Inputs and outputs are the generated procedures' own: a write is passed to them unchanged.
 */
@Injectable()
export class DomainRouter {
  readonly rootDomain;
  readonly domain;

  constructor(
    crud: CrudService,
    private readonly branding: BrandingService,
  ) {
    this.rootDomain = this.withCacheDrop(rootDomainResource, crud);
    this.domain = this.withCacheDrop(domainResource, crud);
  }

  private withCacheDrop(def: ResourceDefinition, crud: CrudService) {
    const generated = crudRouter(def, crud);
    const caller = createCallerFactory(generated);
    const perms: Record<(typeof WRITES)[number], Permission> = {
      create: def.perms.create,
      update: def.perms.edit,
      updateMany: def.perms.edit,
      delete: def.perms.delete,
      deleteMany: def.perms.delete,
    };
    const write = (name: (typeof WRITES)[number]) =>
      procedure
        .meta({ perm: perms[name] })
        .input(z.unknown())
        .mutation(async ({ ctx, input }) => {
          try {
            return (await (caller(ctx as never)[name] as (input: unknown) => Promise<unknown>)(input)) as Record<string, unknown>;
          } finally {
            this.branding.invalidate();
          }
        });
    return router({
      ...generated._def.record,
      create: write('create'),
      update: write('update'),
      updateMany: write('updateMany'),
      delete: write('delete'),
      deleteMany: write('deleteMany'),
    });
  }
}
