import { isToastMuted, isTriggerMuted } from '../../client/src/toasts/mute';
import type { TToast } from '../../server/src/alerts/portal/portal.schema';

/** The browser drops live toasts of triggers the user muted, until the mute's end (the session's notificationBlacklist). */
describe('alarm toasts of muted triggers are dropped in the browser', () => {
  const now = Date.parse('2026-11-24T04:00:00Z');
  const alarmToast = (trigger_cuid: string): TToast => ({
    id: 'n1',
    type: 'NOTIFICATION',
    title: 'Farm: battery low',
    message: 'Battery at 15 %',
    severity: 'CRITICAL',
    triggeredAt: { timestamp: new Date(now), timezone: 'Africa/Nairobi' },
    onClickTarget: '/systems/s1/alarms',
    alarm: { notification_cuid: 'n1', trigger_cuid, system_cuid: 's1', state: 'TRIGGERED' },
  });
  const entry = (trigger_cuid: string, until: string | null) => ({ blacklist_cuid: 'b', user_cuid: 'u', trigger_cuid, until });

  it('drops a muted trigger’s toast while the mute lasts, and shows it again after its end', () => {
    expect(isToastMuted(alarmToast('t1'), [], [entry('t1', null)], now)).toBe(true);
    expect(isToastMuted(alarmToast('t1'), [], [entry('t1', '2026-11-24T05:00:00.000Z')], now)).toBe(true);
    expect(isToastMuted(alarmToast('t1'), [], [entry('t1', '2026-11-24T03:59:59.000Z')], now)).toBe(false);
    expect(isToastMuted(alarmToast('t2'), [], [entry('t1', null)], now)).toBe(false);
    expect(isTriggerMuted([{ trigger_cuid: 't1' }], 't1', now)).toBe(true); // an entry without `until` (older sessions): until unmuted
  });

  it('a portal-notification mute does not silence an alarm of the same system, nor the reverse', () => {
    const portalMute = [{ system_cuid: 's1', notification_type: 'CHANGELOG' }];
    expect(isToastMuted(alarmToast('t1'), portalMute, [], now)).toBe(false);
    const changelog: TToast = { ...alarmToast('t1'), alarm: undefined, source: { notification_cuid: 'p1', system_cuid: 's1', notification_type: 'CHANGELOG' } };
    expect(isToastMuted(changelog, portalMute, [], now)).toBe(true);
    expect(isToastMuted(changelog, [], [entry('t1', null)], now)).toBe(false);
  });
});
