import DescriptionIcon from '@mui/icons-material/Description';
import DnsIcon from '@mui/icons-material/Dns';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import FolderIcon from '@mui/icons-material/Folder';
import LanguageIcon from '@mui/icons-material/Language';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import type { ResourceGroup } from '../kit/group';
import { lazyPage } from '../kit/lazy';
import { messages } from './i18n';

// Each screen is its own chunk, loaded on first use: the shell stays small.
const DocumentationCreate = lazyPage(
  () => import('./documentation'),
  (m) => m.DocumentationCreate,
);
const DocumentationEdit = lazyPage(
  () => import('./documentation'),
  (m) => m.DocumentationEdit,
);
const DocumentationList = lazyPage(
  () => import('./documentation'),
  (m) => m.DocumentationList,
);
const DomainCreate = lazyPage(
  () => import('./domains'),
  (m) => m.DomainCreate,
);
const DomainEdit = lazyPage(
  () => import('./domains'),
  (m) => m.DomainEdit,
);
const DomainList = lazyPage(
  () => import('./domains'),
  (m) => m.DomainList,
);
const RootDomainCreate = lazyPage(
  () => import('./domains'),
  (m) => m.RootDomainCreate,
);
const RootDomainEdit = lazyPage(
  () => import('./domains'),
  (m) => m.RootDomainEdit,
);
const RootDomainList = lazyPage(
  () => import('./domains'),
  (m) => m.RootDomainList,
);
const ExportTemplateCreate = lazyPage(
  () => import('./exportTemplates'),
  (m) => m.ExportTemplateCreate,
);
const ExportTemplateEdit = lazyPage(
  () => import('./exportTemplates'),
  (m) => m.ExportTemplateEdit,
);
const ExportTemplateList = lazyPage(
  () => import('./exportTemplates'),
  (m) => m.ExportTemplateList,
);
const HostedFileList = lazyPage(
  () => import('./files'),
  (m) => m.HostedFileList,
);
const AuthTokenCreate = lazyPage(
  () => import('./tokens'),
  (m) => m.AuthTokenCreate,
);
const AuthTokenList = lazyPage(
  () => import('./tokens'),
  (m) => m.AuthTokenList,
);

/**
 * The admin section of the menu: API tokens (secret shown once), root domains and domains with
 * their branding, hosted files (upload, download), documentation in Markdown with versions, and
 * data export templates.
 */
export const admin: ResourceGroup = {
  key: 'admin',
  label: 'portal.menu.groups.admin',
  resources: [
    { name: 'authToken', list: AuthTokenList, create: AuthTokenCreate, icon: VpnKeyIcon, recordRepresentation: 'description' },
    { name: 'rootDomain', list: RootDomainList, create: RootDomainCreate, edit: RootDomainEdit, icon: LanguageIcon, recordRepresentation: 'name' },
    { name: 'domain', list: DomainList, create: DomainCreate, edit: DomainEdit, icon: DnsIcon, recordRepresentation: 'name' },
    { name: 'hostedFile', list: HostedFileList, icon: FolderIcon, recordRepresentation: 'fileName' },
    {
      name: 'documentation',
      list: DocumentationList,
      create: DocumentationCreate,
      edit: DocumentationEdit,
      icon: DescriptionIcon,
      recordRepresentation: 'documentation_type',
    },
    {
      name: 'systemDataExportTemplate',
      list: ExportTemplateList,
      create: ExportTemplateCreate,
      edit: ExportTemplateEdit,
      icon: FileDownloadIcon,
      recordRepresentation: 'name',
    },
  ],
  messages,
};
