import BadgeIcon from '@mui/icons-material/Badge';
import BusinessIcon from '@mui/icons-material/Business';
import GroupIcon from '@mui/icons-material/Group';
import PersonIcon from '@mui/icons-material/Person';
import type { ResourceGroup } from '../kit/group';
import { CompanyCreate, CompanyEdit, CompanyList } from './companies';
import { messages } from './i18n';
import { MembershipCreate, MembershipEdit, MembershipList } from './memberships';
import { RoleList } from './roles';
import { UserCreate, UserEdit, UserList } from './users';

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
