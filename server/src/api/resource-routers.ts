import { AlertWriteHooks } from '../alerts/engine/alert-write-hooks.service';
import { CATALOGUE_RESOURCES } from '../catalogue/catalogue.resources';
import { companyResource } from '../companies/company.resource';
import { controllerResource, dataProcessorResource, deviceResource, ZProcessorConfigure } from '../controllers/controllers.resources';
import { documentationResource } from '../documentation/documentation.resources';
import { exportTemplateResource } from '../exports/export-template.resource';
import { EVENT_RESOURCES } from '../alerts/alerts.resources';
import { siteResource } from '../sites/site.resource';
import { systemMetadataRouter } from '../systems/system-metadata.router';
import { METADATA_TEMPLATE_RESOURCES } from '../systems/system-metadata.resources';
import { SystemMetadataService } from '../systems/system-metadata.service';
import { systemSharingRouter } from '../systems/system-sharing.router';
import { SystemSharingService } from '../systems/system-sharing.service';
import { systemResource } from '../systems/system.resource';
import { type CrudHooks, crudProcedures, crudRouter, guardedUpdateProcedure } from '../crud/crud-router.factory';
import { router } from '../trpc/trpc';
import { declareRoutes } from '../trpc/routes';
import { CrudService } from '../crud/crud.service';
import type { ResourceDefinition } from '../crud/resource';

/**
 * The back-office resources whose router is the generated one (react-admin's nine calls, plus
 * importMany for those with a `csv` entry in access/resources.ts), by router name. A domain with
 * several lists them in one record beside their definitions (CATALOGUE_RESOURCES …).
 */
const GENERATED = {
  site: siteResource,
  system: systemResource,
  ...CATALOGUE_RESOURCES,
  controller: controllerResource,
  entity: deviceResource,
  ...METADATA_TEMPLATE_RESOURCES,
  company: companyResource,
  ...EVENT_RESOURCES,
  documentation: documentationResource,
  systemDataExportTemplate: exportTemplateResource,
} as const;

/** Every back-office resource definition with a router of its own name (generated or not). */
export const RESOURCES = [...Object.values(GENERATED), dataProcessorResource] as const;

type GeneratedRouter<D> = D extends ResourceDefinition<infer R, infer C, infer U> ? ReturnType<typeof crudRouter<R, C, U>> : never;

/** Hooks of the alert engine on the writes of triggers, templates and devices (checks, autocreation, index reload). */
function hooksOf(name: string, alerts: AlertWriteHooks): CrudHooks | undefined {
  if (name === 'notificationTrigger') return alerts.trigger;
  if (name === 'notificationTemplateAssignment') return alerts.template;
  if (name === 'entity') return alerts.device;
  return undefined;
}

/** The back-office resources' routers by name: the generated ones, sharing, metadata and data processors. */
export const resourceRoutes = declareRoutes(
  { crud: CrudService, sharing: SystemSharingService, metadata: SystemMetadataService, alerts: AlertWriteHooks },
  ({ crud, sharing, metadata, alerts }) => {
    const generated = Object.fromEntries(Object.entries(GENERATED).map(([name, def]) => [name, crudRouter(def, crud, hooksOf(name, alerts))])) as {
      [K in keyof typeof GENERATED]: GeneratedRouter<(typeof GENERATED)[K]>;
    };
    return {
      ...generated,
      systemSharing: systemSharingRouter(sharing),
      systemMetadata: systemMetadataRouter(crud, metadata),
      dataProcessor: router({
        ...crudProcedures(dataProcessorResource, crud),
        // Configuring also writes to the processor's system: owner company or a share with change.
        configure: guardedUpdateProcedure(dataProcessorResource, crud, {
          perm: 'dataProcessors.configure',
          also: ['devices.configure'],
          input: ZProcessorConfigure,
        }),
      }),
    };
  },
);
