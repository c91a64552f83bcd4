import { Injectable } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { type Actor, can } from '../../../../shared/access/policy';
import type { TSessionPayload } from '../../auth/session.schema';
import { maskSecrets } from '../../common/secret-config';
import { mergePatchBetween } from '../../../../shared/controllers/command-wire';
import { forbidden } from '../../common/errors';
import { CommandService } from './command.service';
import { CommandsRepository } from './commands.repository';
import type { TCommandRecord, TControllerConfig, ZApplyConfigInput, ZConfigTarget } from './commands.schema';

type Target = z.infer<typeof ZConfigTarget>;
type Obj = Record<string, unknown>;

/**
 * The configuration of a controller and its devices (docs/control.md, *Configuration: desired and
 * reported*): desired (`config`, what the portal asks for) against reported (what the controller
 * said it runs in its last acknowledgement), and `apply`, which sends the difference as one
 * apply_config command.
 */
@Injectable()
export class ConfigService {
  constructor(
    private readonly rows: CommandsRepository,
    private readonly commands: CommandService,
  ) {}

  /** The configuration view; secret values (common/secret-config.ts) masked in every target the caller may not configure. */
  async get(actor: Actor, controller_id: string): Promise<TControllerConfig> {
    const config = await this.read(actor, controller_id);
    const mayConfigure = config.targets[0]?.may_apply ?? false;
    const last =
      config.last_apply && !mayConfigure
        ? { ...config.last_apply, payload: maskSecrets(config.last_apply.payload), applied_config: maskSecrets(config.last_apply.applied_config) }
        : config.last_apply;
    return { ...config, targets: config.targets.map((t) => (t.may_apply ? t : maskTarget(t))), last_apply: last };
  }

  /** The configuration with its real values (apply sends them; never answered as is). */
  private async read(actor: Actor, controller_id: string): Promise<TControllerConfig> {
    const controller = await this.commands.visibleController(actor, controller_id);
    // The level counts in the controller's company (or a company its system is shared with), not anywhere.
    if (!can(actor, 'controllers.view', { company_cuid: controller.company_cuid, shares: controller.shares })) throw forbidden();
    const mayConfigure = this.commands.mayConfigure(actor, controller);
    const entities = await this.rows.configEntities(actor, controller_id);
    const targets: Target[] = [
      target(
        'controller',
        controller.controller_id,
        controller.name,
        null,
        false,
        controller.config,
        controller.reported_config,
        controller.reported_at,
        mayConfigure,
      ),
      ...entities.map((e) =>
        target(
          'device',
          e.entity_cuid,
          e.name,
          e.entitytype_id,
          e.kind !== 'Device',
          e.config,
          e.reported_config,
          e.reported_at,
          mayConfigure &&
            (e.kind === 'Device' ||
              can(actor, 'dataProcessors.configure', { entity_type_kind: e.kind, company_cuid: controller.company_cuid, shares: controller.shares })),
        ),
      ),
    ];
    const last = await this.rows.lastApply(actor, controller_id);
    return { controller_id, targets, in_sync: targets.every((t) => t.difference === null), last_apply: last ?? null };
  }

  async apply(actor: Actor, session: TSessionPayload, input: z.infer<typeof ZApplyConfigInput>, address: string): Promise<TCommandRecord> {
    const config = await this.read(actor, input.controller_id);
    const only = input.only ? new Set(input.only) : undefined;
    const chosen = config.targets.filter((t) => t.difference !== null && (!only || only.has(t.key)));
    if (!chosen.length) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Nothing to apply' });
    const controllerPatch = chosen.find((t) => t.target === 'controller')?.difference ?? undefined;
    const devices = Object.fromEntries(chosen.filter((t) => t.target === 'device').map((t) => [t.key, t.difference as Obj]));
    const payload: Obj = {
      ...(controllerPatch ? { controller: controllerPatch } : {}),
      ...(Object.keys(devices).length ? { devices } : {}),
    };
    return this.commands.send(
      actor,
      session,
      { controller_id: input.controller_id, kind: 'apply_config', payload, id: input.id, not_after: input.not_after },
      address,
    );
  }
}

/** A target as someone who may not configure it sees it: its secret values masked. */
function maskTarget(t: Target): Target {
  return { ...t, desired: maskSecrets(t.desired), reported: maskSecrets(t.reported), difference: maskSecrets(t.difference) };
}

function target(
  kind: 'controller' | 'device',
  key: string,
  name: string,
  entitytype_id: string | null,
  processor: boolean,
  desired: Obj | null,
  reported: Obj | null,
  reported_at: Date | null,
  may_apply: boolean,
): Target {
  const want = desired ?? {};
  const difference = mergePatchBetween(reported ?? {}, want) ?? (reported === null && Object.keys(want).length ? want : null);
  return { target: kind, key, name, entitytype_id, processor, desired: want, reported, reported_at, difference: difference ?? null, may_apply };
}
