import { z } from 'zod';
import type { Locale } from '../locale';
import { BoundedMap } from '../bounded-map';
import { hasOwnEntry, ownEntry, ownTable } from '../../../../shared/common/own-entry';
import { FRENCH, FRENCH_PHRASES } from './catalogue.fr';

/**
 * Server messages in the caller's language. Messages are written in English in the code; the
 * catalogue (`catalogue.fr.ts`) maps each English message, or template with `{placeholders}` for
 * its variable parts (`{what} not found`), to French. The catalogue key (the English text or
 * template) is the message's stable code, sent beside the message so a client may translate too.
 */

type Compiled = { key: string; pattern: RegExp; names: string[]; literal: number };

const exact = new Map<string, string>(Object.entries(FRENCH).filter(([key]) => !/\{\w+\}/.test(key)));

const PLACEHOLDER = /\{(\w+)\}/g;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Templates, the most specific (longest fixed text) first. */
const templates: Compiled[] = Object.keys(FRENCH)
  .filter((key) => /\{\w+\}/.test(key))
  .map((key) => {
    const names: string[] = [];
    const parts = key.split(PLACEHOLDER);
    let source = '';
    let literal = 0;
    parts.forEach((part, i) => {
      if (i % 2 === 0) {
        source += escape(part);
        literal += part.length;
      } else {
        names.push(part);
        source += '([\\s\\S]+?)';
      }
    });
    return { key, pattern: new RegExp(`^${source}$`), names, literal };
  })
  .sort((a, b) => b.literal - a.literal);

type Found = { code: string; values: Readonly<Record<string, string>> };

/**
 * Messages matched lately (each match tries every template): the same refusals ("try again in
 * 3 s") come back many times a second from a client that does not back off. Bounded, oldest
 * forgotten first; long messages are not kept.
 */
const recent = new BoundedMap<string, Found | null>(2_000);
const RECENT_LONGEST = 300;

/** The catalogue entry (English text or template) a message comes from, with its placeholder values. */
export function findMessage(message: string): Found | undefined {
  if (exact.has(message)) return { code: message, values: {} };
  const seen = recent.get(message);
  if (seen !== undefined) return seen ?? undefined;
  const found = matchTemplate(message);
  if (message.length <= RECENT_LONGEST) {
    recent.set(message, found ? Object.freeze({ code: found.code, values: Object.freeze(found.values) }) : null);
  }
  return found;
}

function matchTemplate(message: string): Found | undefined {
  for (const t of templates) {
    const m = t.pattern.exec(message);
    if (!m) continue;
    const values = ownTable<string>();
    t.names.forEach((name, i) => (values[name] = m[i + 1]));
    return { code: t.key, values };
  }
  return undefined;
}

/** The stable code of a message (its catalogue key), or undefined when the catalogue does not know it. */
export function messageCode(message: string): string | undefined {
  return findMessage(message)?.code;
}

/** Fills a template's placeholders (`{name}`) with `values`. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (hasOwnEntry(values, name) ? String(values[name]) : whole));
}

/**
 * A catalogue template filled with `values`, in `locale` (the values are put in as given: translate
 * them first when they are words). For messages built by the server itself (counts, lists).
 */
export function say(template: string, values: Record<string, string | number>, locale: Locale): string {
  return fill(locale === 'en' ? template : (ownEntry(FRENCH, template) ?? ownEntry(FRENCH_PHRASES, template) ?? template), values);
}

/**
 * A message in `locale`. English messages are answered as written; in French the catalogue's
 * text, with a template's variable parts put back (a part that is itself a catalogue message, such
 * as the `{what}` of `{what} not found`, is translated too). A message the catalogue does not know
 * is answered unchanged.
 */
export function translate(message: string, locale: Locale): string {
  if (locale === 'en' || typeof message !== 'string') return message;
  const found = findMessage(message);
  if (!found) return message;
  const french = ownEntry(FRENCH, found.code) ?? found.code;
  const values = ownTable<string>();
  // A variable part may be a message itself (the `{what}` of `{what} not found`, a reason).
  for (const [name, value] of Object.entries(found.values)) values[name] = translate(value, locale);
  return fill(french, values);
}

// ---- zod's own messages ----

type Issue = z.core.$ZodIssue;
const zodEnglish = z.locales.en().localeError as (issue: unknown) => string | { message: string } | undefined;
const zodFrench = z.locales.fr().localeError as (issue: unknown) => string | { message: string } | undefined;
const text = (out: string | { message: string } | undefined) => (typeof out === 'string' ? out : out?.message);

/** A value of the type zod named in "received …" (the answered issue no longer holds the input). */
function sampleOf(received: string): unknown {
  switch (received) {
    case 'string':
      return '';
    case 'number':
      return 0;
    case 'nan':
    case 'NaN':
      return NaN;
    case 'boolean':
      return false;
    case 'bigint':
      return BigInt(0);
    case 'symbol':
      return Symbol('x');
    case 'undefined':
      return undefined;
    case 'null':
      return null;
    case 'array':
      return [];
    case 'object':
      return {};
    case 'function':
      return () => undefined;
    case 'Date':
    case 'date':
      return new Date(0);
    default:
      return undefined;
  }
}

/** The issue as zod's English locale would have written it, or undefined when its message is ours. */
function ownZodIssue(issue: Issue): Record<string, unknown> | undefined {
  const raw = issue as unknown as Record<string, unknown>;
  let candidate: Record<string, unknown> = raw;
  if (issue.code === 'invalid_type') {
    const received = /received (\S+)$/.exec(issue.message)?.[1];
    if (!received) return undefined;
    candidate = { ...raw, input: sampleOf(received) };
  }
  try {
    return text(zodEnglish(candidate)) === issue.message ? candidate : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The message of one zod issue in `locale`: zod's own messages ("Too small: expected string to
 * have >=1 characters") in zod's French; ours ('Choose one of the offered timeouts') through the
 * catalogue.
 */
export function translateIssue(issue: Issue, locale: Locale): string {
  if (locale === 'en') return issue.message;
  const own = ownZodIssue(issue);
  if (own) {
    try {
      return text(zodFrench(own)) ?? issue.message;
    } catch {
      return issue.message;
    }
  }
  return translate(issue.message, locale);
}

/** The stable code of a zod issue's message: `zod.<issue code>` for zod's own, else the catalogue key. */
export function issueCode(issue: Issue): string | undefined {
  return ownZodIssue(issue) ? `zod.${issue.code}` : messageCode(issue.message);
}
