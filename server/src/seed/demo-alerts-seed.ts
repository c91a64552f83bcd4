import type { EntityManager } from 'typeorm';
import { newCuid } from '../common/ids';
import { DEMO_CONTROLLER_ID } from './demo-data';

/**
 * The demo's alerts on the farm: triggers the simulator really crosses (the battery running low at
 * night, the controller dropping out: the embedded simulator cuts its link two minutes after start)
 * and a verified e-mail channel serving them, so a newcomer sees alarm toasts within minutes and the
 * mails as .eml files under the data folder (no SMTP_URL).
 */
export async function seedDemoAlerts(m: EntityManager, at: { system_cuid: string; company_cuid: string; battery_cuid: string }): Promise<void> {
  const triggers = [
    {
      trigger_cuid: newCuid(),
      name: 'Battery low',
      severity_level: 'ERROR' as const,
      args: { kind: 'threshold', entity_cuid: at.battery_cuid, parameter_id: 'battery_soc', op: 'below', value: 35, release_value: 45, for_seconds: 120, release_for_seconds: 120 },
      message: 'Battery of {system} at {value} {unit} (below {threshold} {unit}) since {time}',
      release_message: 'Battery of {system} back at {value} {unit} ({time})',
    },
    {
      trigger_cuid: newCuid(),
      name: 'Battery full',
      severity_level: 'INFO' as const,
      args: { kind: 'threshold', entity_cuid: at.battery_cuid, parameter_id: 'battery_soc', op: 'above', value: 95, release_value: 90, for_seconds: 0, release_for_seconds: 300 },
      message: 'Battery of {system} full: {value} {unit} at {time}',
      release_message: 'Battery of {system} discharging again: {value} {unit}',
    },
    {
      trigger_cuid: newCuid(),
      name: 'Controller offline',
      severity_level: 'CRITICAL' as const,
      args: { kind: 'offline', controller_id: DEMO_CONTROLLER_ID, after_seconds: 0 },
      message: 'The controller of {system} is offline since {time}',
      release_message: 'The controller of {system} is back online ({time})',
    },
  ];
  await m.query(
    `INSERT INTO notification_trigger (trigger_cuid, name, severity_level, args, message, release_message, system_cuid, is_active)
     SELECT t.id, t.name, t.sev::notification_severity, t.args::jsonb, t.msg, t.rel, $7, true
       FROM unnest($1::varchar[], $2::varchar[], $3::text[], $4::text[], $5::text[], $6::text[]) AS t(id, name, sev, args, msg, rel)`,
    [
      triggers.map((t) => t.trigger_cuid),
      triggers.map((t) => t.name),
      triggers.map((t) => t.severity_level),
      triggers.map((t) => JSON.stringify(t.args)),
      triggers.map((t) => t.message),
      triggers.map((t) => t.release_message),
      at.system_cuid,
    ],
  );
  const channel_cuid = newCuid();
  await m.query(`INSERT INTO notification_channel (channel_cuid, source, status, company_cuid) VALUES ($1, 'EMAIL', 'ACTIVE', $2)`, [channel_cuid, at.company_cuid]);
  await m.query(`INSERT INTO email_notification_channel (email_channel_cuid, channel_cuid, email, verified_at) VALUES ($1, $2, 'alerts@demo.local', now())`, [
    newCuid(),
    channel_cuid,
  ]);
  await m.query(
    `INSERT INTO notification_channel_to_trigger (channel_cuid, trigger_cuid, enabled) SELECT $1, id, true FROM unnest($2::varchar[]) AS t(id)`,
    [channel_cuid, triggers.map((t) => t.trigger_cuid)],
  );
}
