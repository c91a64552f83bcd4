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
import { controllerResource, deviceResource } from '../controllers/fleet.resources';
import { documentationResource, exportTemplateResource } from '../documentation/documentation.resources';
import { channelResource, templateAssignmentResource, triggerResource } from '../notifications/events.resources';
import { siteResource } from '../sites/site.resource';
import { systemResource } from '../systems/system.resource';
import { crudRouter } from './crud-router.factory';
import { CrudService } from './crud.service';

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
  companyResource,
  templateAssignmentResource,
  triggerResource,
  channelResource,
  documentationResource,
  exportTemplateResource,
] as const;

function buildResourceRouters(crud: CrudService) {
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

  constructor(crud: CrudService) {
    this.routers = buildResourceRouters(crud);
  }
}
