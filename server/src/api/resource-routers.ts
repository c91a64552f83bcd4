import { Injectable } from '@nestjs/common';
import {
  controllerTypeResource,
  entityCategoryParameterResource,
  entityCategoryResource,
  entityTypeMetaResource,
  entityTypeParameterResource,
  entityTypeResource,
  interfaceAssignmentResource,
  interfaceTypeResource,
  logParameterResource,
  manufacturerResource,
  unitResource,
} from '../catalogue/catalogue.resources';
import { companyResource } from '../companies/company.resource';
import { controllerResource, dataProcessorResource, deviceResource, ZProcessorConfigure } from '../controllers/fleet.resources';
import { documentationResource } from '../documentation/documentation.resources';
import { exportTemplateResource } from '../exports/export-template.resource';
import { channelResource, templateAssignmentResource, triggerResource } from '../notifications/events.resources';
import { siteResource } from '../sites/site.resource';
import { systemMetadataRouter } from '../systems/system-metadata.router';
import { systemMetadataTemplateFieldsetResource, systemMetadataTemplateSectionResource } from '../systems/system-metadata.resources';
import { SystemMetadataService } from '../systems/system-metadata.service';
import { systemSharingRouter } from '../systems/system-sharing.router';
import { SystemSharingService } from '../systems/system-sharing.service';
import { systemResource } from '../systems/system.resource';
import { crudProcedures, crudRouter, guardedUpdateProcedure } from '../crud/crud-router.factory';
import { router } from '../trpc/trpc';
import { CrudService } from '../crud/crud.service';

/** Every back-office resource's generated router (react-admin's nine calls each). */
export const RESOURCES = [
  siteResource,
  systemResource,
  manufacturerResource,
  controllerTypeResource,
  interfaceTypeResource,
  interfaceAssignmentResource,
  entityTypeResource,
  entityTypeMetaResource,
  entityCategoryResource,
  unitResource,
  logParameterResource,
  entityTypeParameterResource,
  entityCategoryParameterResource,
  controllerResource,
  deviceResource,
  dataProcessorResource,
  systemMetadataTemplateSectionResource,
  systemMetadataTemplateFieldsetResource,
  companyResource,
  templateAssignmentResource,
  triggerResource,
  channelResource,
  documentationResource,
  exportTemplateResource,
] as const;

function buildResourceRouters(crud: CrudService, sharing: SystemSharingService, metadata: SystemMetadataService) {
  return {
    site: crudRouter(siteResource, crud),
    system: crudRouter(systemResource, crud),
    manufacturer: crudRouter(manufacturerResource, crud),
    controllerType: crudRouter(controllerTypeResource, crud),
    interfaceType: crudRouter(interfaceTypeResource, crud),
    interfaceTypeControllerTypeAssignment: crudRouter(interfaceAssignmentResource, crud),
    entityType: crudRouter(entityTypeResource, crud),
    entityTypeMeta: crudRouter(entityTypeMetaResource, crud),
    entityCategory: crudRouter(entityCategoryResource, crud),
    unit: crudRouter(unitResource, crud),
    logParameter: crudRouter(logParameterResource, crud),
    entityTypeLogParameterAssignment: crudRouter(entityTypeParameterResource, crud),
    entityCategoryLogParameterAssignment: crudRouter(entityCategoryParameterResource, crud),
    controller: crudRouter(controllerResource, crud),
    entity: crudRouter(deviceResource, crud),
    systemSharing: systemSharingRouter(sharing),
    systemMetadata: systemMetadataRouter(crud, metadata),
    systemMetadataTemplateSection: crudRouter(systemMetadataTemplateSectionResource, crud),
    systemMetadataTemplateFieldset: crudRouter(systemMetadataTemplateFieldsetResource, crud),
    dataProcessor: router({
      ...crudProcedures(dataProcessorResource, crud),
      // Configuring also writes to the processor's system: owner company or a share with change.
      configure: guardedUpdateProcedure(dataProcessorResource, crud, { perm: 'dataProcessors.configure', also: ['devices.configure'], input: ZProcessorConfigure }),
    }),
    company: crudRouter(companyResource, crud),
    notificationTemplateAssignment: crudRouter(templateAssignmentResource, crud),
    notificationTrigger: crudRouter(triggerResource, crud),
    notificationChannel: crudRouter(channelResource, crud),
    documentation: crudRouter(documentationResource, crud),
    systemDataExportTemplate: crudRouter(exportTemplateResource, crud),
  };
}

@Injectable()
export class ResourceRouters {
  readonly routers: ReturnType<typeof buildResourceRouters>;

  // The system services are optional only for the procedure-permission snapshot (built without services).
  constructor(crud: CrudService, sharing?: SystemSharingService, metadata?: SystemMetadataService) {
    this.routers = buildResourceRouters(crud, sharing as SystemSharingService, metadata as SystemMetadataService);
  }
}
