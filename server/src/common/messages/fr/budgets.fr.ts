/** Server messages in French (catalogue.fr.ts): Budgets (server/src/budgets), storable input and shared batches. */
export const BUDGETS_FR: Record<string, string> = {
  // ---- budgets: mails, commands, rows per company (server/src/budgets) ----
  'You have caused too many mails this hour; try again in {minutes} min': "Vous avez provoqué trop d'e-mails cette heure-ci ; réessayez dans {minutes} min",
  'Too many mails went to this address this hour; try again in {minutes} min':
    "Trop d'e-mails sont partis vers cette adresse cette heure-ci ; réessayez dans {minutes} min",
  'This company has caused too many mails this hour; try again in {minutes} min':
    "Cette entreprise a provoqué trop d'e-mails cette heure-ci ; réessayez dans {minutes} min",
  "This company's files take {used} of its {max} limit and this file needs {size}; delete files it no longer needs, or ask the operator for a larger limit":
    "Les fichiers de cette entreprise occupent {used} de sa limite de {max} et ce fichier demande {size} ; supprimez les fichiers devenus inutiles, ou demandez à l'opérateur une limite plus grande",
  'This company has uploaded {count} files this hour, its limit; try again in {minutes} min':
    'Cette entreprise a téléversé {count} fichiers cette heure-ci, sa limite ; réessayez dans {minutes} min',
  'Too many requests from this session; try again in {seconds} s': 'Trop de requêtes depuis cette session ; réessayez dans {seconds} s',
  'Too many commands to this controller this minute; try again in {seconds} s':
    'Trop de commandes vers ce contrôleur cette minute-ci ; réessayez dans {seconds} s',
  'This company has reached its limit of {max} triggers; delete one before adding another':
    "Cette entreprise a atteint sa limite de {max} déclencheurs ; supprimez-en un avant d'en ajouter un autre",
  'This company has reached its limit of {max} notification channels; delete one before adding another':
    "Cette entreprise a atteint sa limite de {max} canaux de notification ; supprimez-en un avant d'en ajouter un autre",
  'This company has reached its limit of {max} scheduled exports; remove a schedule before adding another':
    "Cette entreprise a atteint sa limite de {max} exports planifiés ; retirez une planification avant d'en ajouter une autre",
  'This company has reached its limit of {max} data processors; delete one before adding another':
    "Cette entreprise a atteint sa limite de {max} processeurs de données ; supprimez-en un avant d'en ajouter un autre",

  // ---- storable input and shared batches (common/storable.ts, control/commands/ack-batch.ts) ----
  'Text may not contain the NUL character (U+0000)': 'Le texte ne peut pas contenir le caractère NUL (U+0000)',
  'Text may not contain a broken character (half of a UTF-16 surrogate pair)':
    "Le texte ne peut pas contenir de caractère cassé (la moitié d'une paire de substitution UTF-16)",
  'Numbers must be finite': 'Les nombres doivent être finis',
  'A date that exists': 'Une date qui existe',
  'The acknowledgement cannot be stored: {reason}': "L'acquittement ne peut pas être enregistré : {reason}",
};
