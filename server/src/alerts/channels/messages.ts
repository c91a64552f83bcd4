import type { NotificationSeverityValue } from '../../../../shared/common/enums';
import { ownEntry } from '../../../../shared/common/own-entry';
import type { OutgoingAlert } from '../delivery/channel-sender';
import { escapeHtml, escapeMarkdown } from '../render';

/**
 * One message for one or several alerts, in each channel's format. Texts of alerts come rendered
 * and escaped (render.ts); what is added here (system names, links) is escaped here.
 */

const SEVERITY_ORDER: readonly NotificationSeverityValue[] = ['CRITICAL', 'ERROR', 'WARNING', 'INFO'] as NotificationSeverityValue[];
const rank = (s: NotificationSeverityValue) => {
  const i = SEVERITY_ORDER.indexOf(s);
  return i < 0 ? SEVERITY_ORDER.length : i;
};
export const highestSeverity = (alerts: readonly OutgoingAlert[]): NotificationSeverityValue =>
  alerts.map((a) => a.severity).sort((a, b) => rank(a) - rank(b))[0];

const stateWord = (a: OutgoingAlert) => (a.state === 'RELEASED' ? 'resolved' : 'active');
const firstLine = (s: string) => s.split('\n')[0];
const clip = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

/** Mail subject: severity and system (one alert), or the count and the systems (a group). */
export function subjectOf(alerts: readonly OutgoingAlert[]): string {
  if (alerts.length === 1) {
    const a = alerts[0];
    const tag = a.state === 'RELEASED' ? `${a.severity} resolved` : a.severity;
    return clip(`[${tag}] ${a.system_name}: ${firstLine(a.text)}`, 160);
  }
  const systems = [...new Set(alerts.map((a) => a.system_name))];
  const where = systems.length === 1 ? systems[0] : `${systems.length} systems`;
  return clip(`[${highestSeverity(alerts)}] ${alerts.length} alerts on ${where}`, 160);
}

export function mailText(alerts: readonly OutgoingAlert[]): string {
  const lines = alerts.map((a) => `- [${a.severity}, ${stateWord(a)}] ${a.system_name}: ${a.text}\n  ${a.time}\n  ${a.link}`);
  return `${alerts.length === 1 ? 'Alert' : `${alerts.length} alerts`}\n\n${lines.join('\n\n')}\n`;
}

const SEVERITY_COLOUR: Record<string, string> = { CRITICAL: '#b71c1c', ERROR: '#d84315', WARNING: '#f9a825', INFO: '#1565c0' };

export function mailHtml(alerts: readonly OutgoingAlert[]): string {
  const rows = alerts
    .map((a) => {
      const colour = ownEntry(SEVERITY_COLOUR, a.severity) ?? '#455a64';
      return `<tr><td style="padding:8px;border-left:4px solid ${colour}">
<div style="font-weight:bold">${escapeHtml(a.severity)} · ${escapeHtml(stateWord(a))} · ${escapeHtml(a.system_name)}</div>
<div>${a.html}</div>
<div style="color:#666;font-size:12px">${escapeHtml(a.time)}</div>
<div><a href="${escapeHtml(a.link)}">Open the system's alarms</a></div></td></tr>`;
    })
    .join('\n');
  return `<!doctype html><html><body style="font-family:sans-serif"><table role="presentation" style="border-collapse:collapse">${rows}</table></body></html>`;
}

/** Telegram allows 4096 characters; a long group is cut with the count of the rest. */
const TELEGRAM_MAX = 4000;
const ICON: Record<string, string> = { CRITICAL: '🔴', ERROR: '🟠', WARNING: '🟡', INFO: '🔵' };

export function telegramHtml(alerts: readonly OutgoingAlert[]): string {
  const one = (a: OutgoingAlert) =>
    `${a.state === 'RELEASED' ? '✅' : (ownEntry(ICON, a.severity) ?? '⚪')} <b>${escapeHtml(a.severity)}${a.state === 'RELEASED' ? ' resolved' : ''}</b> · ${escapeHtml(a.system_name)}\n${a.html}\n<a href="${escapeHtml(a.link)}">Open alarms</a>`;
  return joinWithin(alerts, one, TELEGRAM_MAX, alerts.length > 1 ? `<b>${alerts.length} alerts</b>` : '', (n) => `… and ${n} more`);
}

/** Discord allows 2000 characters in `content`. */
const DISCORD_MAX = 1900;

export function discordMarkdown(alerts: readonly OutgoingAlert[]): string {
  const one = (a: OutgoingAlert) =>
    `${a.state === 'RELEASED' ? '✅' : (ownEntry(ICON, a.severity) ?? '⚪')} **${escapeMarkdown(a.severity)}${a.state === 'RELEASED' ? ' resolved' : ''}** · ${escapeMarkdown(a.system_name)}\n${a.markdown}\n<${a.link}>`;
  return joinWithin(alerts, one, DISCORD_MAX, alerts.length > 1 ? `**${alerts.length} alerts**` : '', (n) => `… and ${n} more`);
}

function joinWithin(alerts: readonly OutgoingAlert[], one: (a: OutgoingAlert) => string, max: number, head: string, more: (n: number) => string): string {
  const parts: string[] = head ? [head] : [];
  let length = head.length;
  for (let i = 0; i < alerts.length; i++) {
    const part = one(alerts[i]);
    const tail = more(alerts.length - i);
    if (length + part.length + 2 > max - tail.length - 2 && parts.length > (head ? 1 : 0)) {
      parts.push(tail);
      return parts.join('\n\n');
    }
    parts.push(part.length > max ? `${part.slice(0, max - 1)}…` : part);
    length += part.length + 2;
  }
  return parts.join('\n\n');
}
