import { ownEntry } from '../../../shared/common/own-entry';
import type { MessagePlaceholder, TTriggerEventValue } from '../../../shared/alerts/rules';

/**
 * Fills a trigger's `message` / `release_message` with an event's values. Placeholders are
 * `{value}`, `{threshold}`, `{parameter}`, `{unit}`, `{device}`, `{system}` and `{time}` (device
 * time in the system's timezone); any other `{word}` stays as written, `{constructor}` or
 * `{__proto__}` too (only the placeholders' own entries are looked up, never Object.prototype). Each format escapes what it
 * inserts *and* the template text itself, so neither a tenant's message nor a device's value can
 * inject markup into a mail, a Telegram message (parse_mode HTML) or a Discord message.
 */
export type RenderFormat = 'text' | 'html' | 'markdown';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ownEntry(HTML_ESCAPES, c) ?? c);
/** Discord markdown: every formatting character is escaped, and mentions are broken up. */
export const escapeMarkdown = (s: string): string => s.replace(/([\\*_~`|>#\-[\]()!:])/g, '\\$1').replace(/@/g, '@\u200b');

const escapeFor = (format: RenderFormat): ((s: string) => string) => (format === 'html' ? escapeHtml : format === 'markdown' ? escapeMarkdown : (s) => s);

/** `{time}`: the device time in the system's timezone, e.g. "2026-11-24 02:13:05 (Africa/Nairobi)". */
export function formatEventTime(iso: string, timezone: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  let zone = timezone;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
  } catch {
    zone = 'UTC';
  }
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} (${zone})`;
}

const show = (v: TTriggerEventValue['value']): string => (v === null ? '—' : typeof v === 'number' ? String(Number(v.toPrecision(12))) : String(v));

export function placeholderValues(event: TTriggerEventValue): Record<MessagePlaceholder, string> {
  return {
    value: show(event.value),
    threshold: show(event.threshold),
    parameter: event.parameter ?? '—',
    unit: event.unit ?? '',
    device: event.device ?? '—',
    system: event.system,
    time: formatEventTime(event.time, event.timezone),
  };
}

/** The message with its placeholders filled, escaped for `format`. */
export function renderMessage(template: string, event: TTriggerEventValue, format: RenderFormat = 'text'): string {
  const values: Readonly<Record<string, string>> = placeholderValues(event);
  const esc = escapeFor(format);
  let out = '';
  let last = 0;
  for (const m of template.matchAll(/\{([A-Za-z_]+)\}/g)) {
    const value = ownEntry(values, m[1]);
    if (value === undefined) continue;
    out += esc(template.slice(last, m.index)) + esc(value);
    last = m.index + m[0].length;
  }
  return out + esc(template.slice(last));
}
