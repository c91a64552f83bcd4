import type { DataSource } from 'typeorm';
import { newCuid } from '../../server/src/common/ids';
import type { TTriggerEventValue } from '../../shared/alerts/rules';

/**
 * Alarm rows written directly (the engine and the outbox are other modules): a trigger, its
 * status row, its state-change events and their notifications.
 */
export async function addTrigger(
  ds: DataSource,
  system_cuid: string,
  opts: { name: string; severity?: string; message?: string; release_message?: string; is_active?: boolean },
): Promise<string> {
  const trigger_cuid = newCuid();
  await ds.query(
    `INSERT INTO notification_trigger (trigger_cuid, system_cuid, name, severity_level, message, release_message, is_active, args)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      trigger_cuid,
      system_cuid,
      opts.name,
      opts.severity ?? 'WARNING',
      opts.message ?? 'Battery at {value} {unit} on {system}',
      opts.release_message ?? 'Battery back to {value} {unit}',
      opts.is_active ?? true,
      JSON.stringify({ kind: 'threshold', entity_cuid: 'e', parameter_id: 'soc', op: 'below', value: 20, release_value: 25 }),
    ],
  );
  return trigger_cuid;
}

export async function setStatus(ds: DataSource, trigger_cuid: string, state: 'TRIGGERED' | 'RELEASED', since: Date, last_value: unknown = 12): Promise<void> {
  await ds.query(
    `INSERT INTO notification_trigger_status (trigger_cuid, trigger_state, state_since, evaluated_at, processing_status, last_value, next_execution)
     VALUES ($1, $2, $3, now(), 'SUCCESS', $4, $5)
     ON CONFLICT (trigger_cuid) DO UPDATE SET trigger_state = EXCLUDED.trigger_state, state_since = EXCLUDED.state_since, last_value = EXCLUDED.last_value`,
    [trigger_cuid, state, since, JSON.stringify(last_value), new Date(since.getTime() + 60_000)],
  );
}

export function eventValue(state: 'TRIGGERED' | 'RELEASED', time: Date, value: number, system: { name: string; system_cuid: string }): TTriggerEventValue {
  return {
    state,
    value,
    threshold: state === 'TRIGGERED' ? 20 : 25,
    parameter: 'State of charge',
    unit: '%',
    device: 'Battery bank',
    system: system.name,
    system_cuid: system.system_cuid,
    timezone: 'Africa/Nairobi',
    time: time.toISOString(),
  };
}

/** An event (SENT with a notification unless `delivered` is false). Returns both ids. */
export async function addEvent(
  ds: DataSource,
  trigger_cuid: string,
  value: TTriggerEventValue,
  opts: { delivered?: boolean; message?: string; severity?: string } = {},
): Promise<{ event_cuid: string; notification_cuid: string | null }> {
  const event_cuid = newCuid();
  let notification_cuid: string | null = null;
  if (opts.delivered !== false) {
    notification_cuid = newCuid();
    await ds.query(`INSERT INTO notification (notification_cuid, message, severity_level, trigger_cuid, sent_at) VALUES ($1, $2, $3, $4, $5)`, [
      notification_cuid,
      opts.message ?? `${value.system}: ${value.state} at ${value.value}`,
      opts.severity ?? 'WARNING',
      trigger_cuid,
      new Date(new Date(value.time).getTime() + 2000),
    ]);
  }
  await ds.query(
    `INSERT INTO notification_trigger_event (event_cuid, "timestamp", trigger_cuid, value, notification_cuid, status)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [event_cuid, new Date(value.time), trigger_cuid, JSON.stringify(value), notification_cuid, notification_cuid ? 'SENT' : 'PENDING'],
  );
  return { event_cuid, notification_cuid };
}
