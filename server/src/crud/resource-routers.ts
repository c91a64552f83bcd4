import { Injectable } from '@nestjs/common';
import { siteResource } from '../sites/site.resource';
import { systemResource } from '../systems/system.resource';
import { crudRouter } from './crud-router.factory';
import { CrudService } from './crud.service';

/** Every back-office resource's generated router (react-admin's nine calls each). */
export const RESOURCES = [siteResource, systemResource] as const;

function buildResourceRouters(crud: CrudService) {
  return {
    site: crudRouter(siteResource, crud),
    system: crudRouter(systemResource, crud),
  };
}

@Injectable()
export class ResourceRouters {
  readonly routers: ReturnType<typeof buildResourceRouters>;

  constructor(crud: CrudService) {
    this.routers = buildResourceRouters(crud);
  }
}
