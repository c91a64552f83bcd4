/** Server messages in French (catalogue.fr.ts): Data exports, hosted files and the fleet overview (server/src/exports, files, fleet). */
export const EXPORTS_FR: Record<string, string> = {
  // ---- exports ----
  'Some parameters are not valid': 'Certains paramètres ne sont pas valides',
  'Export not found': 'Export introuvable',
  'Pick at least one email channel': 'Choisissez au moins un canal e-mail',
  'At most {max} columns': 'Au plus {max} colonnes',
  'Unknown parameter': 'Paramètre inconnu',
  'The range is outside the file': 'La plage est en dehors du fichier',
  'Not a device of this system': 'Pas un appareil de ce système',
  'This device does not log this parameter': "Cet appareil n'enregistre pas ce paramètre",
  'Not a verified, active email channel of the system’s company': "Pas un canal e-mail vérifié et actif de l'entreprise du système",
  'Not a verified, active email channel of your company': 'Pas un canal e-mail vérifié et actif de votre entreprise',
  'Not mailed to {n} of {total} recipients: this company has caused too many mails this hour':
    "Non envoyé par e-mail à {n} destinataires sur {total} : cette entreprise a causé trop d'e-mails cette heure-ci",
  'Not mailed to {n} of {total} recipients: too many mails went to the address this hour':
    "Non envoyé par e-mail à {n} destinataires sur {total} : trop d'e-mails sont partis vers l'adresse cette heure-ci",
  'Not mailed to {n} of {total} recipients: the mail could not be sent':
    "Non envoyé par e-mail à {n} destinataires sur {total} : l'e-mail n'a pas pu être envoyé",
  'The export template is not valid': "Le modèle d'export n'est pas valide",
  'The end comes after the start': 'La fin vient après le début',
  'A date between the years 1970 and 9999': 'Une date entre les années 1970 et 9999',
  'This export template is not valid any more: edit it first': "Ce modèle d'export n'est plus valide : modifiez-le d'abord",
  'An export covers at most {days} days': 'Un export couvre au plus {days} jours',
  'This export template has no columns yet': "Ce modèle d'export n'a encore aucune colonne",
  'This export is too large: {size} column-days (days × columns) where at most {max} are allowed; shorten the range, or use a template with fewer columns or an hourly or daily resolution':
    'Cet export est trop grand : {size} colonnes-jours (jours × colonnes) pour {max} au plus ; raccourcissez la période, ou prenez un modèle avec moins de colonnes ou une résolution horaire ou journalière',
  'You already have {max} exports waiting; start another when one has finished, or cancel one':
    'Vous avez déjà {max} exports en attente ; lancez-en un autre quand l’un est terminé, ou annulez-en un',
  'You already have {max} exports downloading; wait for one to finish':
    'Vous avez déjà {max} exports en cours de téléchargement ; attendez que l’un se termine',
  'This company already has {max} exports waiting; try again when one has finished':
    'Cette entreprise a déjà {max} exports en attente ; réessayez quand l’un est terminé',
  'The export could not be written': "L'export n'a pas pu être écrit",
  'The export took too long to read: export a shorter range or fewer columns':
    "La lecture de l'export a pris trop de temps : exportez une période plus courte ou moins de colonnes",
  'Column {column} of the template names a device or parameter this system no longer has: edit the template':
    "La colonne {column} du modèle nomme un appareil ou un paramètre que ce système n'a plus : modifiez le modèle",

  // ---- files ----
  'Uploading files needs level 2 (Expert)': 'Téléverser des fichiers demande le niveau 2 (Expert)',
  'Send the file as multipart/form-data': 'Envoyez le fichier en multipart/form-data',
  'The file is larger than the limit of {size}': 'Le fichier dépasse la limite de {size}',
  'You already have {limit} uploads running; wait for one to finish, then try again':
    "Vous avez déjà {limit} téléversements en cours ; attendez qu'un se termine, puis réessayez",
  'The file goes in the field "file"': 'Le fichier va dans le champ « file »',
  'The field {field} is sent twice': 'Le champ {field} est envoyé deux fois',
  'Send one file per upload': 'Envoyez un fichier par téléversement',
  'Too many form fields': 'Trop de champs de formulaire',
  'The multipart body could not be read': "Le corps multipart n'a pas pu être lu",
  'A file is required': 'Un fichier est nécessaire',
  'Some fields are not valid': 'Certains champs ne sont pas valides',
  'The file is empty': 'Le fichier est vide',
  'The type of this file could not be recognised': "Le type de ce fichier n'a pas pu être reconnu",
  'Files of type {type} are not accepted (accepted: {accepted})': 'Les fichiers de type {type} ne sont pas acceptés (acceptés : {accepted})',
  'The content of the file is not {type} (it is not UTF-8 text)': "Le contenu du fichier n'est pas {type} (ce n'est pas du texte UTF-8)",
  'The content of the file is not valid JSON': "Le contenu du fichier n'est pas du JSON valide",
  'The content of the file is not an SVG image': "Le contenu du fichier n'est pas une image SVG",
  'The content of the file is not {type} (it is {actual})': "Le contenu du fichier n'est pas {type} (c'est {actual})",
  'The content of the file is not {type}': "Le contenu du fichier n'est pas {type}",
  'Unknown file field': 'Champ de fichier inconnu',
  'Sent twice': 'Envoyé deux fois',
  'One file only': 'Un seul fichier',
  'Unknown field': 'Champ inconnu',
  'Not a valid identifier': 'Identifiant non valide',
  'Not a valid domain name': 'Nom de domaine non valide',
  'You may not delete this file': 'Vous ne pouvez pas supprimer ce fichier',
  'Brand assets are uploaded by a superuser': 'Les éléments de marque sont téléversés par un superutilisateur',
  'Domain not found': 'Domaine introuvable',
  'The domain belongs to another root domain': 'Le domaine appartient à un autre domaine racine',
  'Root domain not found': 'Domaine racine introuvable',
  'This system is shared with your company read-only': 'Ce système est partagé avec votre entreprise en lecture seule',
  'This system is not shared with that company for changes': "Ce système n'est pas partagé avec cette entreprise pour modification",
  'Uploading files needs level 2 (Expert) in this company': 'Téléverser des fichiers demande le niveau 2 (Expert) dans cette entreprise',

  // ---- fleet ----
  'The end must be after the start': 'La fin doit être après le début',
  'At most {days} days per day': 'Au plus {days} jours au pas journalier',
  'At most {months} months': 'Au plus {months} mois',
};
