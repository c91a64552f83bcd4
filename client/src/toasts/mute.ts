import type { TToast } from '../../../server/src/alerts/portal/portal.schema';

/** Is this trigger muted now by the session's blacklist (an entry whose `until` has passed no longer counts)? */
export function isTriggerMuted(blacklist: readonly { trigger_cuid: string; until?: string | null }[], trigger_cuid: string, now = Date.now()): boolean {
  return blacklist.some((b) => b.trigger_cuid === trigger_cuid && (!b.until || new Date(b.until).getTime() > now));
}

/**
 * Is this toast muted: an alarm whose trigger is on the user's blacklist (and the mute has not
 * ended), or a portal notification whose source is on the portal-notification blacklist?
 */
export function isToastMuted(
  toast: TToast,
  blacklist: readonly { system_cuid: string | null; notification_type: string }[],
  alarmBlacklist: readonly { trigger_cuid: string; until?: string | null }[] = [],
  now = Date.now(),
): boolean {
  if (toast.alarm) return isTriggerMuted(alarmBlacklist, toast.alarm.trigger_cuid, now);
  const source = toast.source;
  if (toast.type !== 'NOTIFICATION' || !source) return false;
  return blacklist.some((b) => b.notification_type === source.notification_type && b.system_cuid === source.system_cuid);
}
