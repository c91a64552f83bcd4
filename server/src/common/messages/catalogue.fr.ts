/**
 * Server messages in French: English message (or template, `{name}` for a variable part) →
 * French. Every message the server can answer has an entry (test/messages checks the sources).
 * Keep the placeholders of the English key in the French text.
 */
export const FRENCH: Record<string, string> = {
  'Internal server error': 'Erreur interne du serveur',
  'The input is not valid JSON': "L'entrée n'est pas du JSON valide",
  'The request body is not valid': "Le corps de la requête n'est pas valide",
  'Invalid input': 'Entrée invalide',
  'Sign in to continue': 'Connectez-vous pour continuer',
  'You do not have permission to do this': "Vous n'avez pas le droit de faire cela",
  'This procedure declares no permission': "Cette procédure ne déclare aucune permission",
  '{what} not found': '{what} introuvable',
  'Wrong email or password': 'Adresse e-mail ou mot de passe incorrect',
  'This account is inactive': 'Ce compte est désactivé',
};
