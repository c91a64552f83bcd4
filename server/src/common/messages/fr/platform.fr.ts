import { FRENCH_LABELS } from '../../../../../shared/access/resources';

/** Server messages in French (catalogue.fr.ts): tRPC and HTTP plumbing, health, missing records, sign-in, users and companies, branding, the catalogue, common fields. */
export const PLATFORM_FR: Record<string, string> = {
  // ---- tRPC, HTTP plumbing, database errors ----
  'Internal server error': 'Erreur interne du serveur',
  'The input is not valid JSON': "L'entrée n'est pas du JSON valide",
  'The request body is not valid': "Le corps de la requête n'est pas valide",
  'Invalid input': 'Entrée invalide',
  'Sign in to continue': 'Connectez-vous pour continuer',
  'You do not have permission to do this': "Vous n'avez pas le droit de faire cela",
  'This procedure declares no permission': 'Cette procédure ne déclare aucune permission',
  'Send tRPC calls as application/json': 'Envoyez les appels tRPC en application/json',
  'A batch may hold at most {max} calls (this one has {count}); split it': 'Un lot contient au plus {max} appels (celui-ci en a {count}) ; divisez-le',
  'No such API path': "Ce chemin d'API n'existe pas",
  'Requests from another site are refused': "Les requêtes venant d'un autre site sont refusées",
  'Send the request as application/json': 'Envoyez la requête en application/json',
  'A record with the same unique value already exists': 'Un enregistrement avec la même valeur unique existe déjà',
  'This record is linked to another record that is missing or still in use': 'Cet enregistrement est lié à un autre enregistrement absent ou encore utilisé',
  'A required value is missing': 'Une valeur obligatoire manque',
  'A value is outside the allowed range': 'Une valeur est hors des limites permises',
  'A value has the wrong format': "Une valeur n'a pas le bon format",
  'A value contains a character that cannot be stored': 'Une valeur contient un caractère impossible à enregistrer',
  'A value is too long': 'Une valeur est trop longue',
  'A number is out of range': 'Un nombre est hors limites',
  'A date or time has the wrong format': "Une date ou une heure n'a pas le bon format",
  'A date or time is out of range': 'Une date ou une heure est hors limites',
  'The database took too long to answer': 'La base de données a mis trop de temps à répondre',
  'The record was changed at the same time by someone else; try again': "L'enregistrement a été modifié au même moment par quelqu'un d'autre ; réessayez",
  'The database does not answer': 'La base de données ne répond pas',
  // ---- health and metrics ----
  'This instance is shutting down': "Cette instance est en cours d'arrêt",
  'The MQTT broker is not reachable': "Le broker MQTT n'est pas joignable",
  'Send the metrics token: Authorization: Bearer <token>': 'Envoyez le jeton des métriques : Authorization: Bearer <token>',
  'Metrics are served only to direct requests from this host or a private network; set METRICS_TOKEN to read them from elsewhere':
    "Les métriques ne sont servies qu'aux requêtes directes de cet hôte ou d'un réseau privé ; définissez METRICS_TOKEN pour les lire d'ailleurs",

  // ---- not found: `{what} not found` and the things that can be missing ----
  '{what} not found': '{what} introuvable',
  // The back office's resources by their labels ("Unit", "System" …), from shared/access/resources.ts.
  ...FRENCH_LABELS,
  Notification: 'Notification',
  User: 'Utilisateur',
  Membership: 'Adhésion',
  Role: 'Rôle',
  Mute: 'Mise en sourdine',
  Owner: 'Propriétaire',
  Export: 'Export',
  'Export file': "Fichier d'export",
  File: 'Fichier',
  Share: 'Partage',
  'API token': "Jeton d'API",
  'Data processor type': 'Type de processeur de données',
  'Controller not found in this system': 'Contrôleur introuvable dans ce système',
  'Device not found in this system': 'Appareil introuvable dans ce système',
  'Parameter not found for this device type': "Paramètre introuvable pour ce type d'appareil",

  // ---- sign-in, sessions, passwords ----
  'Wrong email or password': 'Adresse e-mail ou mot de passe incorrect',
  'This account is inactive': 'Ce compte est désactivé',
  'Not signed in': 'Non connecté',
  'The session is not valid; sign in again': "La session n'est pas valide ; reconnectez-vous",
  'The session has expired; sign in again': 'La session a expiré ; reconnectez-vous',
  'The session has ended; sign in again': 'La session est terminée ; reconnectez-vous',
  'Enter a valid email address': 'Saisissez une adresse e-mail valide',
  'Enter your password': 'Saisissez votre mot de passe',
  'Enter your email and password': 'Saisissez votre adresse e-mail et votre mot de passe',
  'Too many sign-in attempts. Try again later.': 'Trop de tentatives de connexion. Réessayez plus tard.',
  'Too many password changes; try again in {seconds} s': 'Trop de changements de mot de passe ; réessayez dans {seconds} s',
  'A valid API token is required': "Un jeton d'API valide est nécessaire",
  'The expiry date must be in the future': "La date d'expiration doit être dans le futur",

  // ---- users, companies, memberships ----
  'An email address such as name@example.com': 'Une adresse e-mail comme nom@exemple.com',
  'String must contain at least 8 character(s)': 'Au moins 8 caractères',
  'Nothing to change': 'Rien à modifier',
  'Choose one of the offered timeouts': 'Choisissez une des durées proposées',
  'Only a superuser, or an admin of every company of this user who is at least as powerful there, can change this user':
    'Seul un superutilisateur, ou un administrateur de chaque entreprise de cet utilisateur qui y a au moins autant de droits, peut modifier cet utilisateur',
  'A user with this email already exists': 'Un utilisateur avec cette adresse e-mail existe déjà',
  'Enter your current password to change your password or email': 'Saisissez votre mot de passe actuel pour changer votre mot de passe ou votre adresse e-mail',
  'The current password is not right': "Le mot de passe actuel n'est pas le bon",
  'Only an admin of this company can add users to it': 'Seul un administrateur de cette entreprise peut y ajouter des utilisateurs',
  'Only the user, a superuser, or an admin of every company of this user who is at least as powerful there can change this user':
    "Seuls l'utilisateur, un superutilisateur ou un administrateur de chaque entreprise de cet utilisateur qui y a au moins autant de droits peuvent modifier cet utilisateur",
  'You cannot delete yourself': 'Vous ne pouvez pas vous supprimer vous-même',
  'Nothing to change: give role_cuid or is_company_admin': 'Rien à modifier : indiquez role_cuid ou is_company_admin',
  'You cannot change your own membership': 'Vous ne pouvez pas modifier votre propre adhésion',
  'Only an admin of this company can change its memberships': 'Seul un administrateur de cette entreprise peut en modifier les adhésions',
  'You cannot change a member more powerful than you': 'Vous ne pouvez pas modifier un membre qui a plus de droits que vous',
  'You cannot grant a role above your own': 'Vous ne pouvez pas attribuer un rôle supérieur au vôtre',
  'Nothing changes': 'Rien ne change',
  'This user is already a member of this company': 'Cet utilisateur est déjà membre de cette entreprise',
  'You cannot remove a member more powerful than you': 'Vous ne pouvez pas retirer un membre qui a plus de droits que vous',

  // ---- branding, domains ----
  'A colour like #0c5b74': 'Une couleur comme #0c5b74',
  'A host name such as portal.example.africa': "Un nom d'hôte comme portail.exemple.africa",
  'Letters, digits and hyphens, e.g. acme (empty for the root domain itself)':
    'Lettres, chiffres et traits d’union, par ex. acme (vide pour le domaine racine lui-même)',
  'This root domain already exists': 'Ce domaine racine existe déjà',
  'The name must be {name} (sub-domain name, then the root domain)': 'Le nom doit être {name} (le sous-domaine, puis le domaine racine)',
  'This domain already exists': 'Ce domaine existe déjà',

  // ---- catalogue ----
  'Lower-case letters, digits, "_", "." or "-" (max 64)': 'Minuscules, chiffres, « _ », « . » ou « - » (64 au plus)',
  'This log parameter is still used ({uses}); remove those uses first':
    "Ce paramètre de journal est encore utilisé ({uses}) ; retirez d'abord ces utilisations",
  'Lower-case letters, digits and "_"': 'Minuscules, chiffres et « _ »',
  'This name is a built-in command': 'Ce nom est celui d’une commande intégrée',
  'Each command name once': 'Chaque nom de commande une seule fois',

  // ---- common fields ----
  'A time zone such as Africa/Nairobi': 'Un fuseau horaire comme Africa/Nairobi',
  'This date does not exist': "Cette date n'existe pas",
  'A date like 2026-11-21': 'Une date comme 2026-11-21',
  Required: 'Obligatoire',
  'A date and time': 'Une date et une heure',
};
