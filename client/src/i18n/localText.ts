import { textOf } from '../../../shared/common/text';
/**
 * A catalogue or template text in the reader's language: the record's `translations[locale][field]`
 * when it holds one (not empty), else the English of the field itself (`record[field]`). The
 * server stores `translations` as `{ "fr": { "<field>": "text" } }` (common/translations.ts).
 */
export function localText(record: object | null | undefined, field: string, locale: string | null | undefined): string | null {
  if (!record) return null;
  const r = record as Record<string, unknown>;
  const language = (locale ?? 'en').slice(0, 2).toLowerCase();
  const translations = r.translations;
  if (translations && typeof translations === 'object' && Object.prototype.hasOwnProperty.call(translations, language)) {
    const texts = (translations as Record<string, unknown>)[language];
    if (texts && typeof texts === 'object' && Object.prototype.hasOwnProperty.call(texts, field)) {
      const text = (texts as Record<string, unknown>)[field];
      if (typeof text === 'string' && text.trim() !== '') return text;
    }
  }
  const own = Object.prototype.hasOwnProperty.call(r, field) ? r[field] : undefined;
  return typeof own === 'string' ? own : own === null || own === undefined ? null : textOf(own);
}
