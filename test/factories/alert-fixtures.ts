import type { DataSource } from 'typeorm';
import { newCuid } from '../../server/src/common/ids';
import type { TTriggerEventValue } from '../../shared/alerts/rules';
import { patience } from './patience';

/**
 * Alert rows written directly, as the engine writes them (the outbox tests do not depend on the
 * engine): a trigger, a channel linked to it, PENDING events with their TTriggerEventValue.
 */
export async function systemByName(ds: DataSource, name: string): Promise<{ system_cuid: string; company_cuid: string; timezone: string }> {
  const [s] = await ds.query(`SELECT system_cuid, company_cuid, timezone FROM system WHERE name = $1`, [name]);
  return s;
}

export async function companyByName(ds: DataSource, name: string): Promise<string> {
  const [c] = await ds.query(`SELECT company_cuid FROM company WHERE name = $1`, [name]);
  return c.company_cuid;
}

export async function addTrigger(
  ds: DataSource,
  system_cuid: string,
  opts: { name?: string; message?: string; release_message?: string | null; severity?: string } = {},
): Promise<string> {
  const trigger_cuid = newCuid();
  await ds.query(
    `INSERT INTO notification_trigger (trigger_cuid, severity_level, args, name, message, release_message, system_cuid)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      trigger_cuid,
      opts.severity ?? 'CRITICAL',
      JSON.stringify({ kind: 'threshold', entity_cuid: 'x', parameter_id: 'soc', op: 'below', value: 20 }),
      opts.name ?? 'Battery low',
      opts.message ?? 'Battery at {value}{unit} (below {threshold}{unit}) on {system}',
      opts.release_message === undefined ? 'Battery back at {value}{unit}' : opts.release_message,
      system_cuid,
    ],
  );
  return trigger_cuid;
}

export async function addChannel(
  ds: DataSource,
  company_cuid: string,
  opts: { source?: string; status?: string; triggers?: string[]; enabled?: boolean } = {},
): Promise<string> {
  const channel_cuid = newCuid();
  await ds.query(`INSERT INTO notification_channel (channel_cuid, source, status, company_cuid) VALUES ($1, $2, $3, $4)`, [
    channel_cuid,
    opts.source ?? 'TELEGRAM',
    opts.status ?? 'ACTIVE',
    company_cuid,
  ]);
  for (const t of opts.triggers ?? []) {
    await ds.query(`INSERT INTO notification_channel_to_trigger (channel_cuid, trigger_cuid, enabled) VALUES ($1, $2, $3)`, [
      channel_cuid,
      t,
      opts.enabled ?? true,
    ]);
  }
  return channel_cuid;
}

export function eventValue(system: { system_cuid: string; timezone: string }, over: Partial<TTriggerEventValue> = {}): TTriggerEventValue {
  return {
    state: 'TRIGGERED',
    value: 12.5,
    threshold: 20,
    parameter: 'State of charge',
    unit: '%',
    device: 'Battery bank',
    system: 'Demo Farm Mini-grid',
    system_cuid: system.system_cuid,
    timezone: system.timezone,
    time: new Date().toISOString(),
    ...over,
  };
}

/** PENDING events of one trigger in one statement (as the engine's transaction writes them); their cuids in order. */
export async function addEvents(ds: DataSource, trigger_cuid: string, values: TTriggerEventValue[]): Promise<string[]> {
  const ids = values.map(() => newCuid());
  await ds.query(
    `INSERT INTO notification_trigger_event (event_cuid, "timestamp", value, trigger_cuid, status)
     SELECT id, (v ->> 'time')::timestamptz, v, $1, 'PENDING'
       FROM unnest($2::varchar[], $3::jsonb[]) AS x(id, v)`,
    [trigger_cuid, ids, values.map((v) => JSON.stringify(v))],
  );
  return ids;
}

/** Polls until `check` returns a truthy value (or throws the last state after `ms`). */
export async function eventually<T>(check: () => Promise<T | undefined | false | null>, ms = 10_000, what = 'condition'): Promise<T> {
  const until = Date.now() + patience(ms);
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}: ${String(last)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
