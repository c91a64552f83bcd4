import type { GroupMessages } from '../kit/group';

/** Strings of the events screens: react-admin's `resources.<name>.name|fields.<field>` and `portal.events.*`. */
export const messages: GroupMessages = {
  en: {
    resources: {
      notificationTemplateAssignment: {
        name: 'Event template |||| Event templates',
        fields: {
          name: 'Name',
          severity_level: 'Severity',
          message: 'Message',
          release_message: 'Release message',
          description: 'Description',
          args: 'Arguments (JSON)',
          autocreate_triggers: 'Create triggers automatically',
          entitytype_id: 'Device type',
          q: 'Search',
        },
      },
      notificationTrigger: {
        name: 'Trigger |||| Triggers',
        fields: {
          name: 'Name',
          created_at: 'Created',
          is_active: 'Active',
          severity_level: 'Severity',
          args: 'Arguments (JSON)',
          message: 'Message',
          release_message: 'Release message',
          system_cuid: 'System',
          assignment_cuid: 'From template',
          q: 'Search',
        },
      },
      notificationChannel: {
        name: 'Channel |||| Channels',
        fields: { source: 'Source', status: 'Status', company_cuid: 'Company' },
      },
    },
    portal: {
      events: {
        source: { EMAIL: 'Email', TELEGRAM: 'Telegram', DISCORD: 'Discord' },
        status: { ACTIVE: 'Active', PENDING: 'Pending', DISABLED: 'Disabled' },
      },
    },
  },
  fr: {
    resources: {
      notificationTemplateAssignment: {
        name: 'Modèle d’événement |||| Modèles d’événements',
        fields: {
          name: 'Nom',
          severity_level: 'Gravité',
          message: 'Message',
          release_message: 'Message de levée',
          description: 'Description',
          args: 'Arguments (JSON)',
          autocreate_triggers: 'Créer les déclencheurs automatiquement',
          entitytype_id: 'Type d’appareil',
          q: 'Recherche',
        },
      },
      notificationTrigger: {
        name: 'Déclencheur |||| Déclencheurs',
        fields: {
          name: 'Nom',
          created_at: 'Créé le',
          is_active: 'Actif',
          severity_level: 'Gravité',
          args: 'Arguments (JSON)',
          message: 'Message',
          release_message: 'Message de levée',
          system_cuid: 'Système',
          assignment_cuid: 'Depuis le modèle',
          q: 'Recherche',
        },
      },
      notificationChannel: {
        name: 'Canal |||| Canaux',
        fields: { source: 'Source', status: 'Statut', company_cuid: 'Société' },
      },
    },
    portal: {
      events: {
        source: { EMAIL: 'E-mail', TELEGRAM: 'Telegram', DISCORD: 'Discord' },
        status: { ACTIVE: 'Actif', PENDING: 'En attente', DISABLED: 'Désactivé' },
      },
    },
  },
};
