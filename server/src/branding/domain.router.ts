import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { crudRouter } from '../crud/crud-router.factory';
import { CrudService } from '../crud/crud.service';
import { DATA_SOURCE } from '../database/database.module';
import { BrandingService } from './branding.service';
import { DomainsRepository } from './domains.repository';
import { checkDomain, checkRootDomain, domainResource, rootDomainResource } from './domain.resources';

/**
 * `rootDomain` and `domain`: the generated CRUD routers, with their reference checks before a
 * write and the cached brands dropped after every write, so the next page load shows the change.
 */
@Injectable()
export class DomainRouter {
  readonly rootDomain;
  readonly domain;

  constructor(crud: CrudService, branding: BrandingService, @Inject(DATA_SOURCE) ds: DataSource) {
    const lookups = new DomainsRepository(ds);
    const afterWrite = () => void branding.invalidate();
    this.rootDomain = crudRouter(rootDomainResource, crud, { checkInput: (kind, row) => checkRootDomain(lookups, kind, row), afterWrite });
    this.domain = crudRouter(domainResource, crud, { checkInput: (kind, row) => checkDomain(lookups, kind, row), afterWrite });
  }
}
