/** Server messages in French (catalogue.fr.ts): Alerts, their channels and notifications (server/src/alerts, notifications). */
export const ALERTS_FR: Record<string, string> = {
  // ---- alerts, channels, notifications ----
  '"from" must be before "to"': '« from » doit précéder « to »',
  'At most one year ahead': "Au plus un an à l'avance",
  'Must be in the future': 'Doit être dans le futur',
  'Not an e-mail address': 'Pas une adresse e-mail',
  'Only an e-mail channel is verified': 'Seul un canal e-mail se vérifie',
  'This address is already verified': 'Cette adresse est déjà vérifiée',
  'Telegram is not set up on this portal yet: ask the portal’s operator to connect its Telegram bot':
    'Telegram n’est pas encore configuré sur ce portail : demandez à l’exploitant du portail de connecter son bot Telegram',
  'The webhook did not take a test message: {reason}': "Le webhook n'a pas accepté de message de test : {reason}",
  'The webhook took a test message; the channel is active': 'Le webhook a accepté un message de test ; le canal est actif',
  'No test message: {reason}': 'Pas de message de test : {reason}',
  'it is disabled': 'il est désactivé',
  'its address is not verified yet': "son adresse n'est pas encore vérifiée",
  'it is not linked to a chat yet': "il n'est pas encore lié à une conversation",
  'it is not active': "il n'est pas actif",
  'A test message was just sent; wait a few seconds': 'Un message de test vient d’être envoyé ; attendez quelques secondes',
  'Test message sent': 'Message de test envoyé',
  'Verification mail sent to {email}': 'E-mail de vérification envoyé à {email}',
  "Verification mail written to the portal's mail folder (no SMTP server is configured)":
    "E-mail de vérification écrit dans le dossier des e-mails du portail (aucun serveur SMTP n'est configuré)",
  'The verification mail could not be sent: {reason}. Try "Resend" later.':
    "L'e-mail de vérification n'a pas pu être envoyé : {reason}. Réessayez « Renvoyer » plus tard.",
  'Not sent: {reason}': 'Non envoyé : {reason}',
  'Not sent now: {reason}; try again {when}': 'Non envoyé pour le moment : {reason} ; réessayez {when}',
  later: 'plus tard',
  'in {seconds} s': 'dans {seconds} s',
  'The rule is not valid': "La règle n'est pas valide",
  'At most {seconds} s (7 days)': 'Au plus {seconds} s (7 jours)',
  'At least 0 s': 'Au moins 0 s',
  'Whole seconds': 'Des secondes entières',
  'At least 1 s': 'Au moins 1 s',
  'A finite number': 'Un nombre fini',
  'Must be at most the trigger value (it releases below it)': 'Doit être au plus la valeur de déclenchement (la levée se fait en dessous)',
  'Must be at least the trigger value (it releases above it)': 'Doit être au moins la valeur de déclenchement (la levée se fait au-dessus)',
  'Create a channel with emailChannel.create, telegramChannel.create or discordChannel.create':
    'Créez un canal avec emailChannel.create, telegramChannel.create ou discordChannel.create',
  'This channel is not verified or linked yet: it cannot be activated': "Ce canal n'est pas encore vérifié ou lié : il ne peut pas être activé",
};
