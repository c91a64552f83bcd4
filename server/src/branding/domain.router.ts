import { crudRouter } from '../crud/crud-router.factory';
import { CrudService } from '../crud/crud.service';
import { declareRoutes } from '../trpc/routes';
import { BrandingService } from './branding.service';
import { DomainsRepository } from './domains.repository';
import { checkDomain, checkRootDomain, domainResource, rootDomainResource } from './domain.resources';

/**
 * `rootDomain` and `domain`: the generated CRUD routers, with their reference checks before a
 * write and the cached brands dropped after every write, so the next page load shows the change.
 */
export const domainRoutes = declareRoutes({ crud: CrudService, branding: BrandingService, lookups: DomainsRepository }, ({ crud, branding, lookups }) => {
  const afterWrite = () => void branding.invalidate();
  return {
    rootDomain: crudRouter(rootDomainResource, crud, { checkInput: (kind, row) => checkRootDomain(lookups, kind, row), afterWrite }),
    domain: crudRouter(domainResource, crud, { checkInput: (kind, row) => checkDomain(lookups, kind, row), afterWrite }),
  };
});
