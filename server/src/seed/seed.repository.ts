import type { EntityManager } from 'typeorm';
import { newCuid } from '../common/ids';

/**
 * The statements of database preparation (start-up seeds: the first superuser, the default
 * metadata template, the demo's alerts). No person calls them: they run once at start, in the
 * preparing transaction (`tx` first), under the start-up lock (database/data-source.ts).
 */

type Tx = Pick<EntityManager, 'query'>;

// ---- the first superuser (INITIAL_SUPERUSER_EMAIL) ------------------------------------------------

export async function userEmailTaken(tx: Tx, email: string): Promise<boolean> {
  return (await tx.query<unknown[]>(`SELECT 1 FROM "user" WHERE email = $1`, [email])).length > 0;
}

export async function superuserRole(tx: Tx): Promise<string | undefined> {
  const [role] = await tx.query<{ role_cuid: string }[]>(`SELECT role_cuid FROM role WHERE level = 0`);
  return role?.role_cuid;
}

/** The company named `name`, created when there is none. */
export async function companyNamed(tx: Tx, name: string): Promise<string> {
  const [company] = await tx.query<{ company_cuid: string }[]>(`SELECT company_cuid FROM company WHERE name = $1`, [name]);
  if (company) return company.company_cuid;
  const company_cuid = newCuid();
  await tx.query(`INSERT INTO company (company_cuid, name) VALUES ($1, $2)`, [company_cuid, name]);
  return company_cuid;
}

/** A user with a password hash, admin member of `company_cuid` with `role_cuid`; answers the user's id. */
export async function insertAdminUser(tx: Tx, user: { email: string; hash: string; name: string }, role_cuid: string, company_cuid: string): Promise<string> {
  const user_cuid = newCuid();
  await tx.query(`INSERT INTO "user" (user_cuid, email, password, name) VALUES ($1, $2, $3, $4)`, [user_cuid, user.email, user.hash, user.name]);
  await tx.query(
    `INSERT INTO company_membership (membership_cuid, role_cuid, user_cuid, company_cuid, is_company_admin)
     VALUES ($1, $2, $3, $4, true)`,
    [newCuid(), role_cuid, user_cuid, company_cuid],
  );
  return user_cuid;
}

// ---- the default metadata template ------------------------------------------------------------

export async function metadataSectionCount(tx: Tx): Promise<number> {
  const [{ n }] = await tx.query<{ n: string }[]>(`SELECT count(*) AS n FROM system_metadata_template_section`);
  return Number(n);
}

export async function insertMetadataSection(tx: Tx, section: { title: string; description: string; isPhaseSection: boolean; index: number }): Promise<number> {
  const [{ section_id }] = await tx.query<{ section_id: number }[]>(
    `INSERT INTO system_metadata_template_section (title, description, "isPhaseSection", "index") VALUES ($1, $2, $3, $4) RETURNING section_id`,
    [section.title, section.description, section.isPhaseSection, section.index],
  );
  return section_id;
}

export async function insertMetadataFieldset(
  tx: Tx,
  section_id: number,
  fieldset: { title: string; description: string | null; data: string; section_index: number },
): Promise<void> {
  await tx.query(
    `INSERT INTO system_metadata_template_fieldset (title, description, data, active, section_index, section_id) VALUES ($1, $2, $3, true, $4, $5)`,
    [fieldset.title, fieldset.description, fieldset.data, fieldset.section_index, section_id],
  );
}

// ---- the demo's alerts --------------------------------------------------------------------------

export interface DemoTrigger {
  trigger_cuid: string;
  name: string;
  severity_level: string;
  args: unknown;
  message: string;
  release_message: string;
}

export async function insertDemoTriggers(tx: Tx, system_cuid: string, triggers: readonly DemoTrigger[]): Promise<void> {
  await tx.query(
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
      system_cuid,
    ],
  );
}

/** A verified e-mail channel of the company serving the given triggers. */
export async function insertDemoMailChannel(tx: Tx, company_cuid: string, trigger_cuids: string[]): Promise<void> {
  const channel_cuid = newCuid();
  await tx.query(`INSERT INTO notification_channel (channel_cuid, source, status, company_cuid) VALUES ($1, 'EMAIL', 'ACTIVE', $2)`, [
    channel_cuid,
    company_cuid,
  ]);
  await tx.query(`INSERT INTO email_notification_channel (email_channel_cuid, channel_cuid, email, verified_at) VALUES ($1, $2, 'alerts@demo.local', now())`, [
    newCuid(),
    channel_cuid,
  ]);
  await tx.query(`INSERT INTO notification_channel_to_trigger (channel_cuid, trigger_cuid, enabled) SELECT $1, id, true FROM unnest($2::varchar[]) AS t(id)`, [
    channel_cuid,
    trigger_cuids,
  ]);
}
