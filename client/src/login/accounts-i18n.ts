import type { GroupMessages } from '../kit/group';
import type { Locale } from '../i18n/locale';
import { makeTranslate, type Translate } from '../i18n/translate';
import { hasOwnEntry, ownEntry } from '../../../shared/common/own-entry';

/**
 * Strings of the account pages (forgot password, set a password from a link, change password,
 * invitations): `portal.account.*`. Kept here, beside the login, so the login chunk carries them
 * without the back office; the shell merges them in with the groups' messages.
 */
export const messages: GroupMessages = {
  en: {
    portal: {
      account: {
        forgot_link: 'Forgot password?',
        back_to_login: 'Back to sign in',
        forgot: {
          page_title: 'Forgot password · %{portal}',
          heading: 'Forgot your password?',
          intro: 'Enter the email address of your account. We will mail you a link to choose a new password.',
          submit: 'Send the link',
          submitting: 'Sending…',
          sent: 'If an active account uses this address, a mail with a link to choose a new password is on its way. Check your inbox (and spam folder). The link is valid for a short time and works once.',
          again: 'Use another address',
        },
        reset: {
          page_title: 'Choose a password · %{portal}',
          heading: 'Choose a new password',
          welcome_heading: 'Welcome! Choose your password',
          new_password: 'New password',
          repeat: 'Repeat the new password',
          submit: 'Save the password',
          submitting: 'Saving…',
          no_token: 'This page needs the link from your mail. Open the link again, or ask for a new one.',
          invalid_link: 'This link is not valid any more (already used, expired or replaced by a newer one).',
          ask_new: 'Ask for a new link',
          done: 'Your password is set. Sign in with it.',
        },
        change: {
          button: 'Change password',
          title: 'Change password',
          current: 'Current password',
          new_password: 'New password',
          repeat: 'Repeat the new password',
          submit: 'Change password',
          cancel: 'Cancel',
          done: 'Your password is changed. Your other sessions were signed out.',
          wrong_current: 'The current password is not right.',
        },
        strength: {
          label: 'Strength: %{level}',
          weak: 'weak',
          fair: 'fair',
          good: 'good',
          strong: 'strong',
          hint: 'At least 8 characters; a few unrelated words are easy to remember and hard to guess.',
        },
        errors: {
          email_required: 'Enter your email address.',
          email_invalid: 'Enter a valid email address.',
          too_short: 'At least 8 characters.',
          too_long: 'At most 200 characters.',
          mismatch: 'The two passwords are not the same.',
          network: 'The portal cannot be reached. Check your connection and try again.',
          server: 'The portal could not do it (error %{status}). Try again in a moment.',
        },
        invitation: {
          hint: 'Leave the password empty to invite the user: they get a mail with a link to choose their own.',
          language: 'Language of the invitation',
          resend: 'Resend invitation',
          resent: 'Invitation sent again.',
          pending: 'Invited: has not chosen a password yet.',
        },
      },
    },
  },
  fr: {
    portal: {
      account: {
        forgot_link: 'Mot de passe oublié ?',
        back_to_login: 'Retour à la connexion',
        forgot: {
          page_title: 'Mot de passe oublié · %{portal}',
          heading: 'Mot de passe oublié ?',
          intro: "Saisissez l'adresse e-mail de votre compte. Nous vous enverrons un lien pour choisir un nouveau mot de passe.",
          submit: 'Envoyer le lien',
          submitting: 'Envoi…',
          sent: "Si un compte actif utilise cette adresse, un e-mail avec un lien pour choisir un nouveau mot de passe est en route. Regardez votre boîte de réception (et les indésirables). Le lien est valable peu de temps et ne sert qu'une fois.",
          again: 'Utiliser une autre adresse',
        },
        reset: {
          page_title: 'Choisir un mot de passe · %{portal}',
          heading: 'Choisir un nouveau mot de passe',
          welcome_heading: 'Bienvenue ! Choisissez votre mot de passe',
          new_password: 'Nouveau mot de passe',
          repeat: 'Répétez le nouveau mot de passe',
          submit: 'Enregistrer le mot de passe',
          submitting: 'Enregistrement…',
          no_token: 'Cette page a besoin du lien reçu par e-mail. Ouvrez à nouveau le lien, ou demandez-en un nouveau.',
          invalid_link: "Ce lien n'est plus valable (déjà utilisé, expiré ou remplacé par un plus récent).",
          ask_new: 'Demander un nouveau lien',
          done: 'Votre mot de passe est enregistré. Connectez-vous avec.',
        },
        change: {
          button: 'Changer le mot de passe',
          title: 'Changer le mot de passe',
          current: 'Mot de passe actuel',
          new_password: 'Nouveau mot de passe',
          repeat: 'Répétez le nouveau mot de passe',
          submit: 'Changer le mot de passe',
          cancel: 'Annuler',
          done: 'Votre mot de passe est changé. Vos autres sessions ont été déconnectées.',
          wrong_current: "Le mot de passe actuel n'est pas le bon.",
        },
        strength: {
          label: 'Robustesse : %{level}',
          weak: 'faible',
          fair: 'moyenne',
          good: 'bonne',
          strong: 'forte',
          hint: 'Au moins 8 caractères ; quelques mots sans rapport entre eux sont faciles à retenir et difficiles à deviner.',
        },
        errors: {
          email_required: 'Saisissez votre adresse e-mail.',
          email_invalid: 'Saisissez une adresse e-mail valide.',
          too_short: 'Au moins 8 caractères.',
          too_long: 'Au plus 200 caractères.',
          mismatch: 'Les deux mots de passe ne sont pas identiques.',
          network: 'Le portail est injoignable. Vérifiez votre connexion et réessayez.',
          server: "Le portail n'a pas pu le faire (erreur %{status}). Réessayez dans un instant.",
        },
        invitation: {
          hint: "Laissez le mot de passe vide pour inviter l'utilisateur : il reçoit un e-mail avec un lien pour choisir le sien.",
          language: "Langue de l'invitation",
          resend: "Renvoyer l'invitation",
          resent: 'Invitation renvoyée.',
          pending: "Invité : n'a pas encore choisi de mot de passe.",
        },
      },
    },
  },
};

const lookup = (tree: unknown, key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? ownEntry(node as Record<string, unknown>, part) : undefined), tree);

/** The login chunk's translator with the account strings (outside react-admin). */
export function makeAccountTranslate(locale: Locale): Translate {
  const base = makeTranslate(locale);
  return (key, options = {}) => {
    const found = lookup(messages[locale], key) ?? lookup(messages.en, key);
    if (typeof found !== 'string') return base(key, options);
    return found.replace(/%\{(\w+)\}/g, (whole, name: string) => (hasOwnEntry(options, name) ? String(options[name]) : whole));
  };
}

/** A rough strength of a new password (length and kinds of characters), for the hint under the field. */
export function passwordStrength(password: string): 'weak' | 'fair' | 'good' | 'strong' {
  if (password.length < 8) return 'weak';
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((r) => r.test(password)).length;
  const score = (password.length >= 12 ? 1 : 0) + (password.length >= 16 ? 1 : 0) + (kinds >= 3 ? 1 : 0);
  return score >= 2 ? 'strong' : score === 1 ? 'good' : 'fair';
}
