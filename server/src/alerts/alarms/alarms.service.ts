import { Inject, Injectable } from '@nestjs/common';
import { type Actor, actorFor } from '../../../../shared/access/policy';
import { forbidden, notFound } from '../../common/errors';
import { renderMessage } from '../render';
import { ZTriggerEventValue } from '../../../../shared/alerts/rules';
import { type AlarmInboxRepository, SqlAlarmInboxRepository } from './alarm-inbox.repository';
import { type AlarmsRepository, SqlAlarmsRepository } from './alarms.repository';
import { UNREAD_COUNT_CAP, type TActiveAlarm, type THistoryInput, type THistoryRow, type TInboxItem, type TTriggerStatus } from './alarms.schema';

/** The message of a firing: the delivered text, else the trigger's template filled with the event's values. */
export function messageOf(delivered: string | null, template: string | null, value: unknown): string {
  if (delivered) return delivered;
  const parsed = ZTriggerEventValue.safeParse(value);
  if (template && parsed.success) return renderMessage(template, parsed.data, 'text');
  return template ?? '';
}

/**
 * The alarm screens (issue 11): active alarms, their history, acknowledgement, mutes, the inbox
 * and trigger status. The repositories keep the rows the caller sees (owner company or a share);
 * here: a foreign id answers like a missing one, messages are made, acknowledgements and read
 * marks are written once.
 */
@Injectable()
export class AlarmsService {
  constructor(
    @Inject(SqlAlarmsRepository) private readonly alarms: AlarmsRepository,
    @Inject(SqlAlarmInboxRepository) private readonly inbox: AlarmInboxRepository,
  ) {}

  /** Triggers now TRIGGERED (active ones) of the systems the caller sees. */
  async active(actor: Actor, system_cuid?: string): Promise<TActiveAlarm[]> {
    if (system_cuid) await this.visibleSystem(actor, system_cuid);
    const rows = await this.alarms.active(actor, system_cuid);
    return rows.map(({ template, event_value, delivered, ...r }) => ({ ...r, message: messageOf(delivered, template, event_value) }));
  }

  /** State changes (TRIGGERED and RELEASED events) of visible triggers, filtered, one page. */
  async history(actor: Actor, input: THistoryInput): Promise<{ data: THistoryRow[]; total: number }> {
    const { filter } = input;
    if (filter.system_cuid) await this.visibleSystem(actor, filter.system_cuid);
    if (filter.trigger_cuid) await this.visibleTrigger(actor, filter.trigger_cuid);
    const { rows, total } = await this.alarms.history(actor, input);
    return {
      data: rows.map(({ delivered, template, ...r }) => ({ ...r, id: r.event_cuid, message: messageOf(delivered, template, r.value) })),
      total,
    };
  }

  /** Writes NotificationUserHistory once per user and notification (a second call changes nothing). */
  async acknowledge(actor: Actor, notification_cuid: string): Promise<{ ok: true; acknowledged_at: Date }> {
    return this.alarms.transaction(async (rows) => {
      if (!(await rows.notificationVisible(actor, notification_cuid))) throw notFound('Notification');
      // One row per (user, notification) even under concurrent clicks: serialise on the pair.
      await rows.lockAcknowledgement(actor, notification_cuid);
      const existing = await rows.acknowledgedAt(actor, notification_cuid);
      if (existing) return { ok: true as const, acknowledged_at: existing };
      return { ok: true as const, acknowledged_at: await rows.insertAcknowledgement(actor, notification_cuid) };
    });
  }

  /** Mutes a visible trigger for the caller (only ever their own row); a second mute replaces the end. */
  async mute(actor: Actor, trigger_cuid: string, until: Date | null): Promise<void> {
    await this.visibleTrigger(actor, trigger_cuid);
    await this.alarms.mute(actor, trigger_cuid, until);
  }

  async unmute(actor: Actor, trigger_cuid: string): Promise<void> {
    await this.visibleTrigger(actor, trigger_cuid);
    await this.alarms.unmute(actor, trigger_cuid);
  }

  /**
   * The inbox: portal notifications and alarm notifications of the systems the caller sees, newest
   * first, with the caller's read state. Alarms of triggers the caller mutes now are left out (the
   * same rule as their toasts).
   */
  async inboxList(actor: Actor, input: { pagination: { page: number; perPage: number }; unreadOnly: boolean }): Promise<{ data: TInboxItem[]; total: number }> {
    const { page, perPage } = input.pagination;
    const total = await this.inbox.count(actor, input.unreadOnly);
    const rows = await this.inbox.page(actor, input.unreadOnly, page, perPage);
    return {
      data: rows.map((r) => ({
        ...r,
        id: `${r.kind}:${r.notification_cuid}`,
        target: r.kind === 'alarm' ? `/systems/${r.system_cuid}/alarms` : `/systems/${r.system_cuid}/changelog`,
      })),
      total,
    };
  }

  async unreadCount(actor: Actor): Promise<{ portal: number; alarms: number; total: number; capped: boolean }> {
    const row = await this.inbox.unreadCounts(actor, UNREAD_COUNT_CAP);
    const total = row.portal + row.alarms;
    return { ...row, total, capped: total >= UNREAD_COUNT_CAP };
  }

  /** Marks items (or everything unread) read. Any item the caller cannot see: NOT_FOUND, nothing written. */
  async markRead(actor: Actor, input: { items: { kind: 'portal' | 'alarm'; notification_cuid: string }[] } | { all: true }): Promise<{ marked: number }> {
    return this.inbox.transaction(async (inbox) => {
      await inbox.lockReadMarks(actor);
      const keys = 'items' in input ? [...new Set(input.items.map((i) => `${i.kind}:${i.notification_cuid}`))] : undefined;
      const rows = await inbox.items(actor, 'all' in input, keys);
      if (keys && rows.length !== keys.length) throw notFound('Notification');
      const unread = rows.filter((r) => !r.read);
      for (const kind of ['portal', 'alarm'] as const) {
        const ids = unread.filter((r) => r.kind === kind).map((r) => r.notification_cuid);
        if (ids.length) await inbox.insertReadMarks(actor, kind, ids);
      }
      return { marked: unread.length };
    });
  }

  /** Statuses of the triggers whose system the caller sees at the level `eventTriggers.view` needs there. */
  async triggerStatuses(caller: Actor, trigger_cuids: string[]): Promise<TTriggerStatus[]> {
    return this.alarms.triggerStatuses(actorFor(caller, 'eventTriggers.view'), trigger_cuids);
  }

  async triggerStatus(actor: Actor, trigger_cuid: string): Promise<TTriggerStatus> {
    const [row] = await this.triggerStatuses(actor, [trigger_cuid]);
    if (!row) {
      // Seen, but through a company where the caller's level is too low: refused, not hidden.
      await this.visibleTrigger(actor, trigger_cuid);
      throw forbidden();
    }
    return row;
  }

  private async visibleSystem(actor: Actor, system_cuid: string): Promise<void> {
    if (!(await this.alarms.systemVisible(actor, system_cuid))) throw notFound('System');
  }

  private async visibleTrigger(actor: Actor, trigger_cuid: string): Promise<void> {
    if (!(await this.alarms.triggerVisible(actor, trigger_cuid))) throw notFound('Trigger');
  }
}
