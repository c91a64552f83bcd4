import { en } from './en';
import { fr } from './fr';
import { makeTranslate } from './translate';
import { GROUP_MESSAGES } from '../messages';

const keys = (node: unknown, prefix = ''): string[] =>
  Object.entries(node as Record<string, unknown>).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`)));

/** Every message by its full key; a key may itself hold dots (react-admin's labels of an array input's fields). */
const flat = (node: unknown, prefix = ''): Map<string, unknown> =>
  new Map(
    Object.entries(node as Record<string, unknown>).flatMap(([k, v]) =>
      typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, unknown]] : [...flat(v, `${prefix}${k}.`)],
    ),
  );

describe('the portal messages', () => {
  it('has the same keys in English and French, and no empty string', () => {
    expect(keys(fr).sort()).toEqual(keys(en).sort());
    for (const key of keys(fr)) expect(makeTranslate('fr')(key)).not.toBe('');
  });

  it('has the same keys in English and French in every back-office group', () => {
    for (const group of GROUP_MESSAGES) {
      expect(keys(group.fr).sort()).toEqual(keys(group.en).sort());
      const messages = flat(group.fr);
      const empty = keys(group.fr).filter((key) => !messages.get(key));
      expect(empty).toEqual([]);
    }
  });

  it('interpolates like Polyglot and picks plural forms per language', () => {
    expect(makeTranslate('en')('portal.home.greeting', { name: 'Ama' })).toBe('Hello, Ama');
    expect(makeTranslate('en')('portal.toasts.waiting', { smart_count: 1 })).toBe('1 more waiting');
    expect(makeTranslate('fr')('portal.toasts.waiting', { smart_count: 1 })).toBe('1 autre en attente');
    expect(makeTranslate('fr')('portal.toasts.waiting', { smart_count: 3 })).toBe('3 autres en attente');
    expect(makeTranslate('en')('portal.nope', { _: 'fallback' })).toBe('fallback');
  });
});
