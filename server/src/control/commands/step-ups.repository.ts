import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Actor } from '../../../../shared/access/policy';
import type { TSessionPayload } from '../../auth/session.schema';
import type { SystemJob } from '../../common/system-job';
import { DATA_SOURCE } from '../../database/database.module';

/**
 * The SQL of step-ups (a password given again for a dangerous command): the caller's own rows in
 * `session_step_up`, keyed by their session, and the sweep of old ones by the command worker.
 */
@Injectable()
export class StepUpsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  /** Whether the caller gave their password in this session within the last `maxAgeSeconds`. */
  async recent(actor: Actor, session: Pick<TSessionPayload, 'sid'>, maxAgeSeconds: number): Promise<boolean> {
    const [row] = await this.ds.query<unknown[]>(
      `SELECT 1 FROM session_step_up WHERE sid = $1 AND user_cuid = $2 AND verified_at > now() - make_interval(secs => $3)`,
      [session.sid, actor.user_cuid, maxAgeSeconds],
    );
    return !!row;
  }

  /** The caller's own sign-in (email for the brake, the password hash to check). */
  async signIn(actor: Actor): Promise<{ email: string; password: string | null } | undefined> {
    const [user] = await this.ds.query<{ email: string; password: string | null }[]>(`SELECT email, password FROM "user" WHERE user_cuid = $1`, [
      actor.user_cuid,
    ]);
    return user;
  }

  /** The caller gave their password in this session now. */
  async record(actor: Actor, session: Pick<TSessionPayload, 'sid'>): Promise<void> {
    await this.ds.query(
      `INSERT INTO session_step_up (sid, user_cuid, verified_at) VALUES ($1, $2, now())
       ON CONFLICT (sid) DO UPDATE SET user_cuid = EXCLUDED.user_cuid, verified_at = EXCLUDED.verified_at`,
      [session.sid, actor.user_cuid],
    );
  }

  /** Background: deletes every step-up older than `maxAgeSeconds` (they no longer count). */
  async sweep(_job: SystemJob, maxAgeSeconds: number): Promise<void> {
    await this.ds.query(`DELETE FROM session_step_up WHERE verified_at < now() - make_interval(secs => $1)`, [maxAgeSeconds]);
  }
}
