import { z } from 'zod';
import { boundedJson } from '../../../shared/common/zod-fields';

/**
 * Catalogue and template texts in other languages beside the English of their own columns:
 * a `translations` jsonb column holding `{ "fr": { "<field>": "text" } }`. Only the table's text
 * fields are accepted, each bounded like its column; an empty text means "no translation" (the
 * English shows). English stays in the columns, so every reader that knows nothing of this gets
 * the texts it always got.
 */
export const TRANSLATION_LOCALES = ['fr'] as const;
export type TranslationLocale = (typeof TRANSLATION_LOCALES)[number];

/**
 * What a read answers: `{ fr?: { field?: text } }` as stored. Checked like the other JSON columns
 * (any object): a row written by SQL with something else must not make its list unreadable; the
 * client reads only strings from it (localText).
 */
export const ZTranslationsRecord = z.record(z.string(), z.unknown());
export type Translations = Partial<Record<TranslationLocale, Record<string, string>>>;

/**
 * The write schema of a table's translations: `fields` maps each translatable text field to its
 * largest length; `patterns` adds families of keys (a metadata fieldset's `field.<key>.label`).
 * Unknown languages or fields and too long texts are refused (400, field error naming them).
 */
export function translationsInput(fields: Record<string, number>, patterns: readonly { pattern: RegExp; max: number }[] = []) {
  const maxOf = (key: string): number | undefined =>
    Object.prototype.hasOwnProperty.call(fields, key) ? fields[key] : patterns.find((p) => p.pattern.test(key))?.max;
  const texts = z
    // null or undefined (a form's untouched input) is no text, like ''
    .record(z.string(), z.string().trim().nullish())
    .superRefine((value, ctx) => {
      for (const [key, text] of Object.entries(value)) {
        const max = maxOf(key);
        if (max === undefined) ctx.addIssue({ code: 'custom', path: [key], message: `No translatable text "${key}" here (${Object.keys(fields).join(', ')})` });
        else if (typeof text === 'string' && text.length > max) ctx.addIssue({ code: 'custom', path: [key], message: `At most ${max} characters` });
      }
    })
    .transform((value) =>
      Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '')),
    );
  return boundedJson(
    z
      .object(Object.fromEntries(TRANSLATION_LOCALES.map((l) => [l, texts.optional()])) as Record<TranslationLocale, z.ZodOptional<typeof texts>>)
      .strict()
      .transform((value) => Object.fromEntries(Object.entries(value).filter(([, t]) => t && Object.keys(t).length > 0)) as Translations)
      // (a form without any French input sends null)
      .nullish()
      .transform((value) => value ?? {}),
    { maxBytes: 64 * 1024 },
  );
}
