import { actor, codeOf } from '../../../../test/factories/rules';
import type { AlertEngine } from './alert-engine.worker';
import type { AlertWriteHooksRepository, LinkedTriggerRow, TemplateRow } from './alert-write-hooks.repository';
import { AlertWriteHooks, autocreatedName } from './alert-write-hooks.service';

/** An installer of the farm's company (the memory repository decides what it sees). */
const CALLER = actor('installer', 'A', 1);

/** The rules of AlertWriteHooks over an in-memory stand-in of its repository and engine (no database). */

interface MemTrigger {
  trigger_cuid: string;
  system_cuid: string;
  assignment_cuid: string | null;
  customized: boolean;
  args: Record<string, unknown>;
  name: string;
  restarted?: boolean;
}

describe('AlertWriteHooks', () => {
  const devices = new Map([
    ['bat1', { system_cuid: 'farm', type: 'battery', name: 'Battery 1' }],
    ['bat2', { system_cuid: 'farm', type: 'battery', name: 'Battery 2' }],
    ['foreign', { system_cuid: 'other', type: 'battery', name: 'Foreign battery' }],
  ]);
  const logs = new Set(['battery:soc']);
  let triggers: MemTrigger[];
  let templates: TemplateRow[];
  let reloads: number;
  let sut: AlertWriteHooks;

  beforeEach(() => {
    triggers = [];
    templates = [
      {
        assignment_cuid: 'tpl',
        name: 'Low',
        message: 'Low {value}',
        release_message: null,
        severity_level: 'ERROR',
        args: { kind: 'threshold', parameter_id: 'soc', op: 'below', value: 15 },
        autocreate_triggers: true,
        entitytype_id: 'battery',
      },
    ];
    reloads = 0;
    const repo: AlertWriteHooksRepository = {
      transaction: (_job, work) => work({} as never),
      async markCustomized(_job, ids) {
        for (const t of triggers) if (ids.includes(t.trigger_cuid) && t.assignment_cuid) t.customized = true;
      },
      // The caller sees every system but 'hidden' (another company's).
      systemsOfTriggers: async (_actor, ids) => [
        ...new Set(triggers.filter((t) => ids.includes(t.trigger_cuid) && t.system_cuid !== 'hidden').map((t) => t.system_cuid)),
      ],
      systemVisible: async (_actor, system) => system !== 'hidden',
      controllerInSystem: async (_job, id, system) => id === 'ctrl' && system === 'farm',
      deviceTypeInSystem: async (_job, e, system) => (devices.get(e)?.system_cuid === system ? devices.get(e)!.type : undefined),
      typeLogsParameter: async (_job, type, p) => logs.has(`${type}:${p}`),
      async restartJudgement(_job, ids) {
        for (const t of triggers) if (ids.includes(t.trigger_cuid)) t.restarted = true;
      },
      entityTypesOfTemplates: async (_job, ids) => [...new Set(templates.filter((t) => ids.includes(t.assignment_cuid)).map((t) => t.entitytype_id))],
      templates: async (_job, ids) => templates.filter((t) => ids.includes(t.assignment_cuid)),
      template: async (_job, id) => templates.find((t) => t.assignment_cuid === id),
      linkedTriggers: async (_job, id) =>
        triggers
          .filter((t) => t.assignment_cuid === id && !t.customized)
          .map((t): LinkedTriggerRow => ({ trigger_cuid: t.trigger_cuid, args: t.args, device: devices.get(String(t.args.entity_cuid))?.name ?? null })),
      async updateTemplated(_job, id, f) {
        Object.assign(
          triggers.find((t) => t.trigger_cuid === id)!,
          { name: f.name, args: f.args },
        );
      },
      autocreateTemplatesFor: async (_job, ids) =>
        templates.filter((t) => t.autocreate_triggers && ids.some((e) => devices.get(e)?.type === t.entitytype_id)).map((t) => t.assignment_cuid),
      devicesWithoutTrigger: async (_job, tpl, ids) =>
        [...devices]
          .filter(
            ([e, d]) =>
              d.type === tpl.entitytype_id &&
              (!ids || ids.includes(e)) &&
              !triggers.some((t) => t.assignment_cuid === tpl.assignment_cuid && t.args.entity_cuid === e),
          )
          .map(([entity_cuid, d]) => ({ entity_cuid, name: d.name, system_cuid: d.system_cuid })),
      async insertTemplated(_job, _tx, tpl, rows) {
        for (const r of rows)
          triggers.push({
            trigger_cuid: r.trigger_cuid,
            system_cuid: r.system_cuid,
            assignment_cuid: tpl.assignment_cuid,
            customized: false,
            args: r.args,
            name: r.name,
          });
      },
    };
    const engine = { reloadEverywhere: async () => void reloads++, markStale: () => undefined } as unknown as AlertEngine;
    sut = new AlertWriteHooks(repo, engine);
  });

  const check = (kind: 'create' | 'update', data: Record<string, unknown>, ids?: string[]) => codeOf(sut.trigger.checkInput!(kind, data, ids, CALLER));
  const low = (entity_cuid: string, parameter_id = 'soc') => ({ kind: 'threshold', entity_cuid, parameter_id, op: 'below', value: 20 });

  it("a rule must parse and name a device, parameter and controller of the trigger's own system", async () => {
    expect(await check('create', { system_cuid: 'farm', args: low('bat1') })).toBe('OK');
    expect(await check('create', { system_cuid: 'farm', args: { kind: 'threshold' } })).toMatch(/^BAD_REQUEST/);
    expect(await check('create', { system_cuid: 'farm', args: low('foreign') })).toBe('NOT_FOUND: Device not found in this system');
    expect(await check('create', { system_cuid: 'farm', args: low('bat1', 'pv_power') })).toBe('NOT_FOUND: Parameter not found for this device type');
    expect(await check('create', { system_cuid: 'farm', args: { kind: 'offline', controller_id: 'elsewhere' } })).toBe(
      'NOT_FOUND: Controller not found in this system',
    );
    triggers.push({ trigger_cuid: 't1', system_cuid: 'other', assignment_cuid: null, customized: false, args: {}, name: 'x' });
    // An update is checked against the system of the trigger being updated.
    expect(await check('update', { args: low('bat1') }, ['t1'])).toBe('NOT_FOUND: Device not found in this system');
    expect(await check('update', { name: 'no args' }, ['t1'])).toBe('OK');
    // A system the caller does not see is never looked into: the write's own scope check answers NOT_FOUND.
    triggers.push({ trigger_cuid: 't2', system_cuid: 'hidden', assignment_cuid: null, customized: false, args: {}, name: 'x' });
    expect(await check('update', { args: { kind: 'offline', controller_id: 'elsewhere' } }, ['t2'])).toBe('OK');
    expect(await check('create', { system_cuid: 'hidden', args: { kind: 'offline', controller_id: 'elsewhere' } })).toBe('OK');
  });

  it('a template makes one trigger per device of its type, then keeps the uncustomized ones in step', async () => {
    expect(await sut.syncTemplates(['tpl'])).toBe(3);
    expect(triggers.map((t) => [t.args.entity_cuid, t.name]).sort()).toEqual([
      ['bat1', autocreatedName('Low', 'Battery 1')],
      ['bat2', autocreatedName('Low', 'Battery 2')],
      ['foreign', autocreatedName('Low', 'Foreign battery')],
    ]);
    triggers[0].customized = true;
    templates[0] = { ...templates[0], name: 'Very low' };
    expect(await sut.syncTemplates(['tpl'])).toBe(2);
    expect(triggers[0].name).toBe(autocreatedName('Low', String(devices.get(String(triggers[0].args.entity_cuid))!.name)));
    expect(triggers.slice(1).every((t) => t.name.startsWith('Very low') && t.restarted)).toBe(true);
  });

  it("a new device gets its type's autocreate triggers only for itself; a hand edit of a templated trigger marks it customized and reloads", async () => {
    expect(await sut.autocreateForDevices(['bat2'])).toBe(1);
    expect(triggers.map((t) => t.args.entity_cuid)).toEqual(['bat2']);
    expect(await sut.autocreateForDevices([])).toBe(0);
    await sut.trigger.afterCommit!({ kind: 'update', ids: [triggers[0].trigger_cuid], data: { name: 'Mine' }, actor: { user_cuid: 'u', memberships: [] } });
    expect(triggers[0].customized).toBe(true);
    expect(reloads).toBe(1);
    await sut.trigger.afterCommit!({ kind: 'update', ids: [triggers[0].trigger_cuid], data: { is_active: true }, actor: { user_cuid: 'u', memberships: [] } });
    expect(triggers[0].restarted).toBe(true);
  });
});
