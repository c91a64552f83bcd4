import CategoryIcon from '@mui/icons-material/Category';
import DeviceHubIcon from '@mui/icons-material/DeviceHub';
import FactoryIcon from '@mui/icons-material/Factory';
import MemoryIcon from '@mui/icons-material/Memory';
import SettingsInputComponentIcon from '@mui/icons-material/SettingsInputComponent';
import StraightenIcon from '@mui/icons-material/Straighten';
import TimelineIcon from '@mui/icons-material/Timeline';
import type { ResourceGroup } from '../kit/group';
import { ControllerTypeCreate, ControllerTypeEdit, ControllerTypeList, ControllerTypeShow } from './controllerTypes';
import { EntityCategoryCreate, EntityCategoryEdit, EntityCategoryList, EntityCategoryShow } from './entityCategories';
import { EntityTypeCreate, EntityTypeEdit, EntityTypeList, EntityTypeShow } from './entityTypes';
import { messages } from './i18n';
import { InterfaceTypeCreate, InterfaceTypeEdit, InterfaceTypeList, InterfaceTypeShow } from './interfaceTypes';
import { LogParameterCreate, LogParameterEdit, LogParameterList, LogParameterShow } from './logParameters';
import { ManufacturerCreate, ManufacturerEdit, ManufacturerList, ManufacturerShow } from './manufacturers';
import { UnitCreate, UnitEdit, UnitList, UnitShow } from './units';

/**
 * The catalogue section of the menu (spec §6: view level 2, change superusers): device and
 * data-processor types, controller types, manufacturers, categories, log parameters, units and
 * interface types. Meta versions and assignments (entityTypeMeta, …Assignment) are tabs of their
 * owner's page, not menu entries: they are not registered (the menu lists every registered name).
 */
export const catalogue: ResourceGroup = {
  key: 'catalogue',
  label: 'portal.menu.groups.catalogue',
  resources: [
    { name: 'entityType', list: EntityTypeList, show: EntityTypeShow, edit: EntityTypeEdit, create: EntityTypeCreate, icon: DeviceHubIcon, recordRepresentation: 'model' },
    { name: 'controllerType', list: ControllerTypeList, show: ControllerTypeShow, edit: ControllerTypeEdit, create: ControllerTypeCreate, icon: MemoryIcon, recordRepresentation: 'model' },
    { name: 'manufacturer', list: ManufacturerList, show: ManufacturerShow, edit: ManufacturerEdit, create: ManufacturerCreate, icon: FactoryIcon, recordRepresentation: 'name' },
    { name: 'entityCategory', list: EntityCategoryList, show: EntityCategoryShow, edit: EntityCategoryEdit, create: EntityCategoryCreate, icon: CategoryIcon, recordRepresentation: 'name' },
    { name: 'logParameter', list: LogParameterList, show: LogParameterShow, edit: LogParameterEdit, create: LogParameterCreate, icon: TimelineIcon, recordRepresentation: 'parameter_id' },
    { name: 'unit', list: UnitList, show: UnitShow, edit: UnitEdit, create: UnitCreate, icon: StraightenIcon, recordRepresentation: 'unit' },
    { name: 'interfaceType', list: InterfaceTypeList, show: InterfaceTypeShow, edit: InterfaceTypeEdit, create: InterfaceTypeCreate, icon: SettingsInputComponentIcon, recordRepresentation: 'interfacetype_id' },
  ],
  messages,
};
