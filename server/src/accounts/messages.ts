import type { Locale } from '../common/locale';
import { escapeHtml } from '../alerts/render';

/**
 * Every text of the accounts part, in English and French: the mails (plain text and HTML) and the
 * answers the forgot / reset endpoints and the procedures give.
 */

export interface AccountMail {
  subject: string;
  text: string;
  html: string;
}

interface MailParts {
  /** The brand's title ("Energy Portal"). */
  brand: string;
  /** The person's name. */
  name: string;
  link: string;
  /** How long the link is valid, already worded ("72 hours", "30 minutes"). */
  validity: string;
}

const duration = (locale: Locale, amount: number, unit: 'hour' | 'minute'): string => {
  const words = { en: { hour: ['hour', 'hours'], minute: ['minute', 'minutes'] }, fr: { hour: ['heure', 'heures'], minute: ['minute', 'minutes'] } };
  return `${amount} ${words[locale][unit][amount === 1 ? 0 : 1]}`;
};

/** A link's validity in words: whole hours when it is a number of hours, else minutes. */
export function validityOf(locale: Locale, seconds: number): string {
  return seconds % 3600 === 0 ? duration(locale, seconds / 3600, 'hour') : duration(locale, Math.round(seconds / 60), 'minute');
}

function html(brand: string, paragraphs: string[], button: { href: string; label: string }, after: string[]): string {
  const p = (s: string) => `<p style="margin:0 0 12px">${s}</p>`;
  return `<!doctype html><html><body style="font-family:sans-serif;color:#1b1b1b;max-width:560px">
<h2 style="margin:0 0 16px">${escapeHtml(brand)}</h2>
${paragraphs.map(p).join('\n')}
<p style="margin:16px 0"><a href="${escapeHtml(button.href)}" style="background:#0c2836;color:#fff;padding:10px 16px;border-radius:4px;text-decoration:none">${escapeHtml(button.label)}</a></p>
<p style="margin:0 0 12px;font-size:13px;color:#555">${escapeHtml(button.href)}</p>
${after.map(p).join('\n')}
</body></html>`;
}

export function invitationMail(locale: Locale, m: MailParts): AccountMail {
  if (locale === 'fr') {
    return {
      subject: `${m.brand} : votre invitation`,
      text: `Bonjour ${m.name},\n\nUn compte a été créé pour vous sur ${m.brand}. Choisissez votre mot de passe en ouvrant ce lien (valable ${m.validity}, une seule fois) :\n${m.link}\n\nVous vous connecterez ensuite avec votre adresse e-mail et ce mot de passe.\nSi vous n'attendiez pas cette invitation, ignorez ce message.\n`,
      html: html(
        m.brand,
        [
          `Bonjour ${escapeHtml(m.name)},`,
          `Un compte a été créé pour vous sur ${escapeHtml(m.brand)}. Choisissez votre mot de passe (lien valable ${escapeHtml(m.validity)}, une seule fois) :`,
        ],
        { href: m.link, label: 'Choisir mon mot de passe' },
        ["Vous vous connecterez ensuite avec votre adresse e-mail et ce mot de passe. Si vous n'attendiez pas cette invitation, ignorez ce message."],
      ),
    };
  }
  return {
    subject: `${m.brand}: your invitation`,
    text: `Hello ${m.name},\n\nAn account was created for you on ${m.brand}. Choose your password by opening this link (valid ${m.validity}, once):\n${m.link}\n\nThen sign in with your email address and that password.\nIf you did not expect this invitation, ignore this mail.\n`,
    html: html(
      m.brand,
      [
        `Hello ${escapeHtml(m.name)},`,
        `An account was created for you on ${escapeHtml(m.brand)}. Choose your password (link valid ${escapeHtml(m.validity)}, once):`,
      ],
      { href: m.link, label: 'Choose my password' },
      ['Then sign in with your email address and that password. If you did not expect this invitation, ignore this mail.'],
    ),
  };
}

export function resetMail(locale: Locale, m: MailParts): AccountMail {
  if (locale === 'fr') {
    return {
      subject: `${m.brand} : réinitialiser votre mot de passe`,
      text: `Bonjour ${m.name},\n\nQuelqu'un (vous, sans doute) a demandé à réinitialiser votre mot de passe sur ${m.brand}. Choisissez-en un nouveau en ouvrant ce lien (valable ${m.validity}, une seule fois) :\n${m.link}\n\nSi ce n'était pas vous, ignorez ce message : votre mot de passe ne change pas.\n`,
      html: html(
        m.brand,
        [
          `Bonjour ${escapeHtml(m.name)},`,
          `Quelqu'un (vous, sans doute) a demandé à réinitialiser votre mot de passe sur ${escapeHtml(m.brand)}. Choisissez-en un nouveau (lien valable ${escapeHtml(m.validity)}, une seule fois) :`,
        ],
        { href: m.link, label: 'Choisir un nouveau mot de passe' },
        ["Si ce n'était pas vous, ignorez ce message : votre mot de passe ne change pas."],
      ),
    };
  }
  return {
    subject: `${m.brand}: reset your password`,
    text: `Hello ${m.name},\n\nSomeone (probably you) asked to reset your password on ${m.brand}. Choose a new one by opening this link (valid ${m.validity}, once):\n${m.link}\n\nIf it was not you, ignore this mail: your password does not change.\n`,
    html: html(
      m.brand,
      [
        `Hello ${escapeHtml(m.name)},`,
        `Someone (probably you) asked to reset your password on ${escapeHtml(m.brand)}. Choose a new one (link valid ${escapeHtml(m.validity)}, once):`,
      ],
      { href: m.link, label: 'Choose a new password' },
      ['If it was not you, ignore this mail: your password does not change.'],
    ),
  };
}

/** Answers of the endpoints and procedures, per language. */
export const ACCOUNT_TEXTS = {
  en: {
    forgotSent: 'If an active account uses this address, a mail with a link to choose a new password is on its way. Check your inbox (and spam folder).',
    enterEmail: 'Enter a valid email address',
    linkInvalid: 'This link is not valid any more (already used, expired or replaced by a newer one). Ask for a new link.',
    passwordSet: 'Your password is set. Sign in with it.',
    passwordTooShort: 'At least 8 characters',
    passwordTooLong: 'At most 200 characters',
    invitationSent: (email: string) => `An invitation was mailed to ${email}.`,
    invitationWritten: "The invitation mail was written to the portal's mail folder (no SMTP server is configured).",
    invitationFailed: (reason: string) =>
      `The user was created, but the invitation mail could not be sent (${reason}). Send it again later with "Resend invitation".`,
    alreadyActive: 'This user has already set their password: they can use "Forgot password?" on the sign-in page.',
    deactivated: 'This user was deactivated: reactivate them first.',
    resendFromCompany: 'Resend the invitation from a company of this user where you are an admin (company_cuid).',
  },
  fr: {
    forgotSent:
      'Si un compte actif utilise cette adresse, un e-mail avec un lien pour choisir un nouveau mot de passe est en route. Regardez votre boîte de réception (et les indésirables).',
    enterEmail: 'Saisissez une adresse e-mail valide',
    linkInvalid: "Ce lien n'est plus valable (déjà utilisé, expiré ou remplacé par un plus récent). Demandez un nouveau lien.",
    passwordSet: 'Votre mot de passe est enregistré. Connectez-vous avec.',
    passwordTooShort: 'Au moins 8 caractères',
    passwordTooLong: 'Au plus 200 caractères',
    invitationSent: (email: string) => `Une invitation a été envoyée à ${email}.`,
    invitationWritten: "L'e-mail d'invitation a été écrit dans le dossier des e-mails du portail (aucun serveur SMTP n'est configuré).",
    invitationFailed: (reason: string) =>
      `L'utilisateur a été créé, mais l'e-mail d'invitation n'a pas pu partir (${reason}). Renvoyez-le plus tard avec « Renvoyer l'invitation ».`,
    alreadyActive: 'Cet utilisateur a déjà choisi son mot de passe : il peut utiliser « Mot de passe oublié ? » sur la page de connexion.',
    deactivated: "Cet utilisateur a été désactivé : réactivez-le d'abord.",
    resendFromCompany: "Renvoyez l'invitation depuis une entreprise de cet utilisateur dont vous êtes administrateur (company_cuid).",
  },
} as const;
