import DescriptionIcon from '@mui/icons-material/Description';
import DnsIcon from '@mui/icons-material/Dns';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import FolderIcon from '@mui/icons-material/Folder';
import LanguageIcon from '@mui/icons-material/Language';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import type { ResourceGroup } from '../kit/group';
import { DocumentationCreate, DocumentationEdit, DocumentationList } from './documentation';
import { DomainCreate, DomainEdit, DomainList, RootDomainCreate, RootDomainEdit, RootDomainList } from './domains';
import { ExportTemplateCreate, ExportTemplateEdit, ExportTemplateList } from './exportTemplates';
import { HostedFileList } from './files';
import { messages } from './i18n';
import { AuthTokenCreate, AuthTokenList } from './tokens';

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
    { name: 'documentation', list: DocumentationList, create: DocumentationCreate, edit: DocumentationEdit, icon: DescriptionIcon, recordRepresentation: 'documentation_type' },
    { name: 'systemDataExportTemplate', list: ExportTemplateList, create: ExportTemplateCreate, edit: ExportTemplateEdit, icon: FileDownloadIcon, recordRepresentation: 'name' },
  ],
  messages,
};
