import BadgeIcon from '@mui/icons-material/Badge';
import BusinessIcon from '@mui/icons-material/Business';
import GroupIcon from '@mui/icons-material/Group';
import PersonIcon from '@mui/icons-material/Person';
import type { ResourceGroup } from '../kit/group';
import { lazyPage } from '../kit/lazy';
import { messages } from './i18n';

// Each screen is its own chunk, loaded on first use: the shell stays small.
const CompanyCreate = lazyPage(
  () => import('./companies'),
  (m) => m.CompanyCreate,
);
const CompanyEdit = lazyPage(
  () => import('./companies'),
  (m) => m.CompanyEdit,
);
const CompanyList = lazyPage(
  () => import('./companies'),
  (m) => m.CompanyList,
);
const MembershipCreate = lazyPage(
  () => import('./memberships'),
  (m) => m.MembershipCreate,
);
const MembershipEdit = lazyPage(
  () => import('./memberships'),
  (m) => m.MembershipEdit,
);
const MembershipList = lazyPage(
  () => import('./memberships'),
  (m) => m.MembershipList,
);
const RoleList = lazyPage(
  () => import('./roles'),
  (m) => m.RoleList,
);
const UserCreate = lazyPage(
  () => import('./users'),
  (m) => m.UserCreate,
);
const UserEdit = lazyPage(
  () => import('./users'),
  (m) => m.UserEdit,
);
const UserList = lazyPage(
  () => import('./users'),
  (m) => m.UserList,
);

/**
 * The organisation section of the menu (spec §6: company admins and superusers): companies,
 * users (create with a password and a first membership, deactivate, delete), memberships and the
 * four roles with their level colours.
 */
export const organisation: ResourceGroup = {
  key: 'organisation',
  label: 'portal.menu.groups.organisation',
  resources: [
    { name: 'company', list: CompanyList, edit: CompanyEdit, create: CompanyCreate, icon: BusinessIcon, recordRepresentation: 'name' },
    { name: 'user', list: UserList, edit: UserEdit, create: UserCreate, icon: PersonIcon, recordRepresentation: 'name' },
    { name: 'companyMembership', list: MembershipList, edit: MembershipEdit, create: MembershipCreate, icon: GroupIcon, recordRepresentation: 'user_name' },
    { name: 'role', list: RoleList, icon: BadgeIcon, recordRepresentation: 'name' },
  ],
  messages,
};
