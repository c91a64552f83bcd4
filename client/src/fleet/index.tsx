import DevicesIcon from '@mui/icons-material/DeviceHub';
import FunctionsIcon from '@mui/icons-material/Functions';
import PlaceIcon from '@mui/icons-material/Place';
import RouterIcon from '@mui/icons-material/Router';
import systems from '../systems';
import type { ResourceGroup } from '../kit/group';
import { lazyPage } from '../kit/lazy';
import { messages } from './i18n';

const sites = () => import('./sites');
const systemForms = () => import('./systems');
const controllers = () => import('./controllers');
const devices = () => import('./devices');
const controllerShow = () => import('../control/ControllerShow');

/** The fleet section of the menu: sites, systems (with sharing and metadata), controllers, devices, data processors. */
export const fleet: ResourceGroup = {
  key: 'fleet',
  label: 'portal.menu.groups.fleet',
  resources: [
    {
      name: 'site',
      list: lazyPage(sites, (m) => m.SiteList),
      create: lazyPage(sites, (m) => m.SiteCreate),
      edit: lazyPage(sites, (m) => m.SiteEdit),
      icon: PlaceIcon,
      recordRepresentation: 'name',
    },
    {
      name: 'system',
      ...systems,
      create: lazyPage(systemForms, (m) => m.SystemCreate),
      edit: lazyPage(systemForms, (m) => m.SystemEdit),
    },
    {
      name: 'controller',
      list: lazyPage(controllers, (m) => m.ControllerList),
      create: lazyPage(controllers, (m) => m.ControllerCreate),
      edit: lazyPage(controllers, (m) => m.ControllerEdit),
      show: lazyPage(controllerShow, (m) => m.ControllerShow),
      icon: RouterIcon,
      recordRepresentation: 'name',
    },
    {
      name: 'entity',
      list: lazyPage(devices, (m) => m.devices.list),
      create: lazyPage(devices, (m) => m.devices.create),
      edit: lazyPage(devices, (m) => m.devices.edit),
      icon: DevicesIcon,
      recordRepresentation: 'name',
    },
    {
      name: 'dataProcessor',
      list: lazyPage(devices, (m) => m.dataProcessors.list),
      create: lazyPage(devices, (m) => m.dataProcessors.create),
      edit: lazyPage(devices, (m) => m.dataProcessors.edit),
      icon: FunctionsIcon,
      recordRepresentation: 'name',
    },
  ],
  messages,
};
