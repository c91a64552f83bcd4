import type { GroupMessages } from '../kit/group';

/** Strings of the organisation screens: react-admin's `resources.<name>.name|fields.<field>` and `portal.organisation.*`. */
export const messages: GroupMessages = {
  en: {
    resources: {
      company: {
        name: 'Company |||| Companies',
        fields: { name: 'Name', url: 'Website', logo: 'Logo (URL)', meta: 'Meta (JSON)', created_at: 'Created' },
      },
      user: {
        name: 'User |||| Users',
        fields: {
          name: 'Name',
          email: 'Email',
          phone: 'Phone',
          password: 'Password',
          current_password: 'Current password',
          inactive: 'Status',
          company_cuid: 'Company',
          role_cuid: 'Role',
          is_company_admin: 'Company admin',
          q: 'Search',
        },
      },
      companyMembership: {
        name: 'Membership |||| Memberships',
        fields: {
          company_cuid: 'Company',
          company_name: 'Company',
          user_cuid: 'User',
          user_name: 'User',
          user_email: 'Email',
          role_cuid: 'Role',
          role_name: 'Role',
          role_level: 'Level',
          is_company_admin: 'Company admin',
        },
      },
      role: {
        name: 'Role |||| Roles',
        fields: { name: 'Name', level: 'Level', description: 'Description' },
      },
    },
    portal: {
      organisation: {
        level: 'Level %{level}',
        user: {
          status: 'Status',
          active: 'Active',
          inactive: 'Inactive',
          deactivate: 'Deactivate',
          reactivate: 'Reactivate',
          deactivate_title: 'Deactivate %{name}?',
          deactivate_content: '%{name} (%{email}) is signed out within seconds and cannot sign in until reactivated.',
          reactivate_title: 'Reactivate %{name}?',
          reactivate_content: '%{name} will be able to sign in again.',
          deactivated: '%{name} is deactivated',
          reactivated: '%{name} is active again',
          inactivated_at: 'Deactivated on',
          inactivated_by: 'by',
          password_hint: 'At least 8 characters.',
          password_keep: 'Leave empty to keep the current password.',
          current_password_hint: 'Needed to change your own password or email.',
        },
        company: {
          url_hint: 'A full address starting with https://',
          logo_hint: 'Address of an image (https://…)',
          add_member: 'Add a member',
        },
      },
    },
  },
  fr: {
    resources: {
      company: {
        name: 'Société |||| Sociétés',
        fields: { name: 'Nom', url: 'Site web', logo: 'Logo (URL)', meta: 'Méta (JSON)', created_at: 'Créée le' },
      },
      user: {
        name: 'Utilisateur |||| Utilisateurs',
        fields: {
          name: 'Nom',
          email: 'E-mail',
          phone: 'Téléphone',
          password: 'Mot de passe',
          current_password: 'Mot de passe actuel',
          inactive: 'Statut',
          company_cuid: 'Société',
          role_cuid: 'Rôle',
          is_company_admin: 'Administrateur de la société',
          q: 'Recherche',
        },
      },
      companyMembership: {
        name: 'Appartenance |||| Appartenances',
        fields: {
          company_cuid: 'Société',
          company_name: 'Société',
          user_cuid: 'Utilisateur',
          user_name: 'Utilisateur',
          user_email: 'E-mail',
          role_cuid: 'Rôle',
          role_name: 'Rôle',
          role_level: 'Niveau',
          is_company_admin: 'Administrateur de la société',
        },
      },
      role: {
        name: 'Rôle |||| Rôles',
        fields: { name: 'Nom', level: 'Niveau', description: 'Description' },
      },
    },
    portal: {
      organisation: {
        level: 'Niveau %{level}',
        user: {
          status: 'Statut',
          active: 'Actif',
          inactive: 'Inactif',
          deactivate: 'Désactiver',
          reactivate: 'Réactiver',
          deactivate_title: 'Désactiver %{name} ?',
          deactivate_content: '%{name} (%{email}) est déconnecté en quelques secondes et ne peut plus se connecter avant d’être réactivé.',
          reactivate_title: 'Réactiver %{name} ?',
          reactivate_content: '%{name} pourra de nouveau se connecter.',
          deactivated: '%{name} est désactivé',
          reactivated: '%{name} est de nouveau actif',
          inactivated_at: 'Désactivé le',
          inactivated_by: 'par',
          password_hint: 'Au moins 8 caractères.',
          password_keep: 'Laisser vide pour garder le mot de passe actuel.',
          current_password_hint: 'Nécessaire pour changer votre propre mot de passe ou e-mail.',
        },
        company: {
          url_hint: 'Une adresse complète commençant par https://',
          logo_hint: 'Adresse d’une image (https://…)',
          add_member: 'Ajouter un membre',
        },
      },
    },
  },
};
