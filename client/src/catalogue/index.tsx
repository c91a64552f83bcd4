import CategoryIcon from '@mui/icons-material/Category';
import DeviceHubIcon from '@mui/icons-material/DeviceHub';
import FactoryIcon from '@mui/icons-material/Factory';
import MemoryIcon from '@mui/icons-material/Memory';
import SettingsInputComponentIcon from '@mui/icons-material/SettingsInputComponent';
import StraightenIcon from '@mui/icons-material/Straighten';
import TimelineIcon from '@mui/icons-material/Timeline';
import type { ResourceGroup } from '../kit/group';
import { lazyPage } from '../kit/lazy';
import { messages } from './i18n';

// Each screen is its own chunk, loaded on first use: the shell stays small.
const ControllerTypeCreate = lazyPage(
  () => import('./controllerTypes'),
  (m) => m.ControllerTypeCreate,
);
const ControllerTypeEdit = lazyPage(
  () => import('./controllerTypes'),
  (m) => m.ControllerTypeEdit,
);
const ControllerTypeList = lazyPage(
  () => import('./controllerTypes'),
  (m) => m.ControllerTypeList,
);
const ControllerTypeShow = lazyPage(
  () => import('./controllerTypes'),
  (m) => m.ControllerTypeShow,
);
const EntityCategoryCreate = lazyPage(
  () => import('./entityCategories'),
  (m) => m.EntityCategoryCreate,
);
const EntityCategoryEdit = lazyPage(
  () => import('./entityCategories'),
  (m) => m.EntityCategoryEdit,
);
const EntityCategoryList = lazyPage(
  () => import('./entityCategories'),
  (m) => m.EntityCategoryList,
);
const EntityCategoryShow = lazyPage(
  () => import('./entityCategories'),
  (m) => m.EntityCategoryShow,
);
const EntityTypeCreate = lazyPage(
  () => import('./entityTypes'),
  (m) => m.EntityTypeCreate,
);
const EntityTypeEdit = lazyPage(
  () => import('./entityTypes'),
  (m) => m.EntityTypeEdit,
);
const EntityTypeList = lazyPage(
  () => import('./entityTypes'),
  (m) => m.EntityTypeList,
);
const EntityTypeShow = lazyPage(
  () => import('./entityTypes'),
  (m) => m.EntityTypeShow,
);
const InterfaceTypeCreate = lazyPage(
  () => import('./interfaceTypes'),
  (m) => m.InterfaceTypeCreate,
);
const InterfaceTypeEdit = lazyPage(
  () => import('./interfaceTypes'),
  (m) => m.InterfaceTypeEdit,
);
const InterfaceTypeList = lazyPage(
  () => import('./interfaceTypes'),
  (m) => m.InterfaceTypeList,
);
const InterfaceTypeShow = lazyPage(
  () => import('./interfaceTypes'),
  (m) => m.InterfaceTypeShow,
);
const LogParameterCreate = lazyPage(
  () => import('./logParameters'),
  (m) => m.LogParameterCreate,
);
const LogParameterEdit = lazyPage(
  () => import('./logParameters'),
  (m) => m.LogParameterEdit,
);
const LogParameterList = lazyPage(
  () => import('./logParameters'),
  (m) => m.LogParameterList,
);
const LogParameterShow = lazyPage(
  () => import('./logParameters'),
  (m) => m.LogParameterShow,
);
const ManufacturerCreate = lazyPage(
  () => import('./manufacturers'),
  (m) => m.ManufacturerCreate,
);
const ManufacturerEdit = lazyPage(
  () => import('./manufacturers'),
  (m) => m.ManufacturerEdit,
);
const ManufacturerList = lazyPage(
  () => import('./manufacturers'),
  (m) => m.ManufacturerList,
);
const ManufacturerShow = lazyPage(
  () => import('./manufacturers'),
  (m) => m.ManufacturerShow,
);
const UnitCreate = lazyPage(
  () => import('./units'),
  (m) => m.UnitCreate,
);
const UnitEdit = lazyPage(
  () => import('./units'),
  (m) => m.UnitEdit,
);
const UnitList = lazyPage(
  () => import('./units'),
  (m) => m.UnitList,
);
const UnitShow = lazyPage(
  () => import('./units'),
  (m) => m.UnitShow,
);

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
    {
      name: 'entityType',
      list: EntityTypeList,
      show: EntityTypeShow,
      edit: EntityTypeEdit,
      create: EntityTypeCreate,
      icon: DeviceHubIcon,
      recordRepresentation: 'model',
    },
    {
      name: 'controllerType',
      list: ControllerTypeList,
      show: ControllerTypeShow,
      edit: ControllerTypeEdit,
      create: ControllerTypeCreate,
      icon: MemoryIcon,
      recordRepresentation: 'model',
    },
    {
      name: 'manufacturer',
      list: ManufacturerList,
      show: ManufacturerShow,
      edit: ManufacturerEdit,
      create: ManufacturerCreate,
      icon: FactoryIcon,
      recordRepresentation: 'name',
    },
    {
      name: 'entityCategory',
      list: EntityCategoryList,
      show: EntityCategoryShow,
      edit: EntityCategoryEdit,
      create: EntityCategoryCreate,
      icon: CategoryIcon,
      recordRepresentation: 'name',
    },
    {
      name: 'logParameter',
      list: LogParameterList,
      show: LogParameterShow,
      edit: LogParameterEdit,
      create: LogParameterCreate,
      icon: TimelineIcon,
      recordRepresentation: 'parameter_id',
    },
    { name: 'unit', list: UnitList, show: UnitShow, edit: UnitEdit, create: UnitCreate, icon: StraightenIcon, recordRepresentation: 'unit' },
    {
      name: 'interfaceType',
      list: InterfaceTypeList,
      show: InterfaceTypeShow,
      edit: InterfaceTypeEdit,
      create: InterfaceTypeCreate,
      icon: SettingsInputComponentIcon,
      recordRepresentation: 'interfacetype_id',
    },
  ],
  messages,
};
