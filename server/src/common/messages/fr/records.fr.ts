/** Server messages in French (catalogue.fr.ts): Records: what depends on a record, the generic CRUD and CSV import, dashboards. */
export const RECORDS_FR: Record<string, string> = {
  // ---- what depends on a record (the delete confirmation) ----
  'Deleting it will also delete {list}.': 'Le supprimer supprimera aussi {list}.',
  'Deleting them will also delete {list}.': 'Les supprimer supprimera aussi {list}.',
  'Kept, but no longer linked: {list}.': 'Conservés, mais plus liés : {list}.',
  'It cannot be deleted while it has {list}.': 'Impossible de le supprimer tant qu’il a {list}.',
  'They cannot be deleted while they have {list}.': 'Impossible de les supprimer tant qu’ils ont {list}.',
  'Nothing else depends on it.': 'Rien d’autre n’en dépend.',
  'Nothing else depends on them.': 'Rien d’autre n’en dépend.',

  // ---- crud, CSV import ----
  'At most 1,000 rows per import': 'Au plus 1 000 lignes par import',
  'The file has no rows': "Le fichier n'a aucune ligne",
  'Cannot sort by {field}': 'Impossible de trier par {field}',
  'Only the owner company can move this to another system': "Seule l'entreprise propriétaire peut déplacer ceci vers un autre système",
  'Unknown column': 'Colonne inconnue',
  'Not a whole number (digits only)': 'Pas un nombre entier (chiffres seulement)',
  'Not a number': 'Pas un nombre',
  'Not a yes/no value (true, false, 1, 0, yes, no)': 'Pas une valeur oui/non (true, false, 1, 0, yes, no)',
  'Not valid JSON': 'JSON non valide',
  'This row could not be saved': "Cette ligne n'a pas pu être enregistrée",
  'already exists': 'existe déjà',
  'not found': 'introuvable',
  '{what} "{name}" not found among those you can see': '{what} « {name} » introuvable parmi ce que vous pouvez voir',
  'Several records of {what} are named "{name}"; give the id in {column} instead':
    'Plusieurs enregistrements de type {what} s’appellent « {name} » ; donnez plutôt l’identifiant dans {column}',
  '{column} and {nameColumn} name different records': '{column} et {nameColumn} désignent des enregistrements différents',
  'Unknown filter: {filter}': 'Filtre inconnu : {filter}',
  'Unknown reference: {reference}': 'Référence inconnue : {reference}',
  'Invalid filter': 'Filtre non valide',

  // ---- dashboards ----
  'Required for a custom range': 'Obligatoire pour une période personnalisée',
  'Must be after the start': 'Doit être après le début',
  'Required for a device parameter': "Obligatoire pour un paramètre d'appareil",
  'At most {max} series': 'Au plus {max} séries',
  'Choose at least one parameter': 'Choisissez au moins un paramètre',
  'At most {max} characters': 'Au plus {max} caractères',
  'No translatable text "{key}" here ({fields})': 'Pas de texte traduisible « {key} » ici ({fields})',
  'The widget must fit in {columns} columns': 'Le widget doit tenir dans {columns} colonnes',
  'At most {max} widgets': 'Au plus {max} widgets',
  'Widget ids must be unique': 'Les identifiants de widget doivent être uniques',
  'Owner not found': 'Propriétaire introuvable',
  'System not found': 'Système introuvable',
};
