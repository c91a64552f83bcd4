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
import { crudRouter, importableCrudRouter } from './crud-router.factory';
import { CrudService } from './crud.service';

/** Sites are created from CSV files too (the definition lives with the sites module). */
const importableSite = { ...siteResource, importable: true };

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
    site: importableCrudRouter(importableSite, crud),
    system: importableCrudRouter(systemResource, crud),
    manufacturer: importableCrudRouter(manufacturerResource, crud),
    controllerType: importableCrudRouter(controllerTypeResource, crud),
    interfaceType: importableCrudRouter(interfaceTypeResource, crud),
    interfaceTypeControllerTypeAssignment: crudRouter(interfaceAssignmentResource, crud),
    entityType: importableCrudRouter(entityTypeResource, crud),
    entityTypeMeta: crudRouter(entityTypeMetaResource, crud),
    entityCategory: importableCrudRouter(entityCategoryResource, crud),
    unit: importableCrudRouter(unitResource, crud),
    logParameter: importableCrudRouter(logParameterResource, crud),
    entityTypeLogParameterAssignment: importableCrudRouter(entityTypeParameterResource, crud),
    entityCategoryLogParameterAssignment: importableCrudRouter(entityCategoryParameterResource, crud),
    controller: importableCrudRouter(controllerResource, crud),
    entity: importableCrudRouter(deviceResource, crud),
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
