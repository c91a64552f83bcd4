import { FRENCH, FRENCH_PHRASES, findMessage, say, translate } from '../../server/src/common/messages';
import { scanMessages } from './scan-messages';

/**
 * The class test of the server's messages: every message text the sources can answer (found by
 * an AST walk, see scan-messages.ts) has a French entry in the catalogue; a template literal
 * matches a catalogue template with the same fixed text.
 */

/** Sources whose texts never reach a caller: the simulated controller's own replies, demo data, start-up settings. */
const NOT_ANSWERED = [
  /^server\/src\/simulator\//,
  /^server\/src\/seed\//,
  /^server\/src\/config\//,
  // every domain's start-up settings (<domain>.config.ts, composed in api/app-config.ts)
  /^server\/src\/(?:.+\/)?[\w-]+\.config\.ts:/,
  /^server\/src\/api\/app-config\.ts:/,
  /^server\/src\/alerts\/channels\/telegram-api\.ts/,
];

const normal = (text: string) => text.replace(/\{\w*\}/g, '{}');
const keys = new Set([...Object.keys(FRENCH), ...Object.keys(FRENCH_PHRASES)].map(normal));

function known(text: string): boolean {
  if (keys.has(normal(text))) return true;
  // A fixed text answered through a template ('At most 254 characters'): only when the variable parts
  // hold no words (numbers, signs), which the French template then keeps as they are.
  if (!text.includes('{}')) {
    const found = findMessage(text);
    if (found && Object.values(found.values).every((v) => !/[A-Za-z]{2}/.test(v))) return true;
  }
  // A variable part glued to another or to a word (`not ${type}${detail}`, `valid${detail}`, where the
  // detail may be empty): the message, with the parts filled or left empty, must still match an entry.
  if (/\{\}\{\}|\w\{\}|\{\}\w/.test(text)) return ['x', ''].some((part) => findMessage(text.replace(/\{\}/g, part)) !== undefined);
  return false;
}

describe('server messages: the French catalogue', () => {
  const found = scanMessages(process.cwd()).filter((m) => !NOT_ANSWERED.some((re) => re.test(m.where)));

  it('the walk finds the messages of every kind of source', () => {
    const texts = new Set(found.map((m) => m.text));
    // One of each kind: TRPCError, fieldError, notFound, zod refine/min, Nest exception, a MESSAGES table, a `message:` row.
    for (const t of [
      'You do not have permission to do this',
      'You cannot delete yourself',
      'System',
      'Choose one of the offered timeouts',
      'Enter your email and password',
      'The session has expired; sign in again',
      'A value is too long',
      'Too many password changes; try again in {} s',
    ]) {
      expect(texts).toContain(t);
    }
    expect(found.length).toBeGreaterThan(200);
  });

  it('every message has a French entry', () => {
    const missing = found.filter((m) => (m.kind === 'what' ? !keys.has(m.text) : !known(m.text)));
    expect(missing.map((m) => `${m.where}: ${JSON.stringify(m.text)}`)).toEqual([]);
  });

  it('every French entry is filled and keeps the placeholders of its English key', () => {
    const bad = [...Object.entries(FRENCH), ...Object.entries(FRENCH_PHRASES)].filter(([en, fr]) => {
      const names = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort().join(',');
      return names(en) !== names(fr) || !fr.trim();
    });
    expect(bad).toEqual([]);
  });

  it('translates exact messages, templates and their translatable parts', () => {
    expect(translate('Sign in to continue', 'fr')).toBe('Connectez-vous pour continuer');
    expect(translate('Sign in to continue', 'en')).toBe('Sign in to continue');
    expect(translate('System not found', 'fr')).toBe('Système introuvable');
    expect(translate('Export template not found', 'fr')).toBe("Modèle d'export introuvable");
    expect(translate('Too many password changes; try again in 42 s', 'fr')).toBe('Trop de changements de mot de passe ; réessayez dans 42 s');
    expect(translate('Not sent now: HTTP 502; try again in 30 s', 'fr')).toBe('Non envoyé pour le moment : HTTP 502 ; réessayez dans 30 s');
    expect(translate('The content of the file is not image/png (it is image/jpeg)', 'fr')).toBe("Le contenu du fichier n'est pas image/png (c'est image/jpeg)");
    expect(translate('The content of the file is not image/png', 'fr')).toBe("Le contenu du fichier n'est pas image/png");
    expect(translate('Something the catalogue does not know', 'fr')).toBe('Something the catalogue does not know');
    // Phrases are for `say` only: a loose template never catches an unrelated sentence.
    expect(say('{count} systems', { count: 3 }, 'fr')).toBe('3 systèmes');
    expect(translate('Move it to another system', 'fr')).toBe('Move it to another system');
    expect(translate('Cats and dogs', 'fr')).toBe('Cats and dogs');
  });
});
