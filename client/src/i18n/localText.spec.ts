import { localText } from './localText';

describe('localText: a catalogue text in the reader’s language, English as the fallback', () => {
  const role = { name: 'SystemInstaller', description: 'Installs systems', translations: { fr: { name: 'Installateur système' } } };

  it('gives the French of a field on French screens', () => {
    expect(localText(role, 'name', 'fr')).toBe('Installateur système');
    expect(localText(role, 'name', 'fr-FR')).toBe('Installateur système');
  });

  it('falls back to the English column when the language or the field has no text', () => {
    expect(localText(role, 'name', 'en')).toBe('SystemInstaller');
    expect(localText(role, 'description', 'fr')).toBe('Installs systems');
    expect(localText({ ...role, translations: { fr: { name: '  ' } } }, 'name', 'fr')).toBe('SystemInstaller');
    expect(localText({ name: 'Basic' }, 'name', 'fr')).toBe('Basic');
    expect(localText({ name: 'Basic', translations: null }, 'name', 'fr')).toBe('Basic');
    expect(localText(role, 'name', undefined)).toBe('SystemInstaller');
  });

  it('answers null for no record or no text, and never reads inherited keys', () => {
    expect(localText(null, 'name', 'fr')).toBeNull();
    expect(localText({ description: null }, 'description', 'fr')).toBeNull();
    expect(localText({ translations: { fr: {} } }, 'toString', 'fr')).toBeNull();
    expect(localText({ name: 'X', translations: {} }, 'name', 'constructor')).toBe('X');
  });

  it('reads keyed template texts (a fieldset field’s label)', () => {
    const fieldset = { translations: { fr: { 'field.operator.label': 'Exploitant' } }, 'field.operator.label': 'Operator' };
    expect(localText(fieldset, 'field.operator.label', 'fr')).toBe('Exploitant');
    expect(localText(fieldset, 'field.operator.label', 'en')).toBe('Operator');
  });
});
