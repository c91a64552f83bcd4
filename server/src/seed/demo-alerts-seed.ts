import type { EntityManager } from 'typeorm';
import { newCuid } from '../common/ids';
import { DEMO_CONTROLLER_ID } from './demo-data';
import { insertDemoMailChannel, insertDemoTriggers } from './seed.repository';

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
      args: {
        kind: 'threshold',
        entity_cuid: at.battery_cuid,
        parameter_id: 'battery_soc',
        op: 'below',
        value: 35,
        release_value: 45,
        for_seconds: 120,
        release_for_seconds: 120,
      },
      message: 'Battery of {system} at {value} {unit} (below {threshold} {unit}) since {time}',
      release_message: 'Battery of {system} back at {value} {unit} ({time})',
    },
    {
      trigger_cuid: newCuid(),
      name: 'Battery full',
      severity_level: 'INFO' as const,
      args: {
        kind: 'threshold',
        entity_cuid: at.battery_cuid,
        parameter_id: 'battery_soc',
        op: 'above',
        value: 95,
        release_value: 90,
        for_seconds: 0,
        release_for_seconds: 300,
      },
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
  await insertDemoTriggers(m, at.system_cuid, triggers);
  await insertDemoMailChannel(
    m,
    at.company_cuid,
    triggers.map((t) => t.trigger_cuid),
  );
}
