import { actor, codeOf } from '../../../../test/factories/rules';
import { checkCommand, type CommandCheckReads } from './command-checks';

/** The command checks over an in-memory stand-in of what they read (no database). */

const COMPANY = 'co-a';
const controller = {
  controller_id: 'ctrl-1',
  company_cuid: COMPANY,
  shares: [] as { company_cuid: string; change: boolean }[],
  commands: [
    { name: 'start_genset', label: 'Start genset', dangerous: true, args: [{ name: 'minutes', type: 'number', required: true, min: 1, max: 240 }] },
    {
      name: 'set_mode',
      args: [
        { name: 'mode', type: 'string', choices: ['eco', 'boost'] },
        { name: 'psk', type: 'string', secret: true },
      ],
    },
  ],
};

/** Entities of ctrl-1 (kind), device types and the parameters their types log. */
function memoryReads(): CommandCheckReads & { calls: string[] } {
  const entities = new Map([
    ['dev-1', { kind: 'Device', type: 'inverter' }],
    ['calc-1', { kind: 'CalculatedValue', type: 'calc' }],
  ]);
  const logs = new Set(['inverter/soc']);
  const calls: string[] = [];
  return {
    calls,
    entityKinds: async (_actor, controller_id, keys) => {
      calls.push('entityKinds');
      return controller_id === 'ctrl-1' ? keys.filter((k) => entities.has(k)).map((k) => ({ entity_cuid: k, kind: entities.get(k)!.kind })) : [];
    },
    deviceType: async (_actor, controller_id, entity_cuid) => (controller_id === 'ctrl-1' ? entities.get(entity_cuid)?.type : undefined),
    typeLogsParameter: async (_actor, type, parameter) => logs.has(`${type}/${parameter}`),
  };
}

const roomy = { assertCommandRoom: () => undefined };
const installer = actor('u-installer', COMPANY, 1);
const expert = actor('u-expert', COMPANY, 0);

describe('command checks (rules)', () => {
  it('restart is a dangerous built-in; a declared command keeps only its declared arguments, in their bounds', async () => {
    const reads = memoryReads();
    expect(await checkCommand(roomy, reads, installer, controller, 'restart', {})).toEqual({ payload: {}, dangerous: true, label: 'Restart' });
    expect(await checkCommand(roomy, reads, installer, controller, 'start_genset', { minutes: 30 })).toEqual({
      payload: { minutes: 30 },
      dangerous: true,
      label: 'Start genset',
    });
    expect(await codeOf(checkCommand(roomy, reads, installer, controller, 'start_genset', { minutes: 999 }))).toMatch(/^BAD_REQUEST/);
    expect(await codeOf(checkCommand(roomy, reads, installer, controller, 'start_genset', { minutes: 5, extra: 1 }))).toMatch(/^BAD_REQUEST/);
    expect(await codeOf(checkCommand(roomy, reads, installer, controller, 'set_mode', { mode: 'turbo' }))).toMatch(/^BAD_REQUEST/);
    expect(await checkCommand(roomy, reads, installer, controller, 'set_mode', { mode: 'eco' })).toEqual({
      payload: { mode: 'eco' },
      dangerous: false,
      label: 'set_mode',
    });
    expect(await codeOf(checkCommand(roomy, reads, installer, controller, 'self_destruct', {}))).toMatch(/^BAD_REQUEST/);
    expect(reads.calls).toEqual([]);
  });

  it('set_parameter needs a device of this controller whose type logs the parameter', async () => {
    const reads = memoryReads();
    const ok = { entity_cuid: 'dev-1', parameter_id: 'soc', value: 50 };
    expect((await checkCommand(roomy, reads, installer, controller, 'set_parameter', ok)).payload).toEqual(ok);
    expect(await codeOf(checkCommand(roomy, reads, installer, controller, 'set_parameter', { ...ok, entity_cuid: 'dev-9' }))).toMatch(/^NOT_FOUND/);
    expect(await codeOf(checkCommand(roomy, reads, installer, controller, 'set_parameter', { ...ok, parameter_id: 'voltage' }))).toMatch(/^BAD_REQUEST/);
  });

  it('apply_config: every device must be on the controller; a calculated value needs level 0', async () => {
    const reads = memoryReads();
    expect((await checkCommand(roomy, reads, installer, controller, 'apply_config', { devices: { 'dev-1': { a: 1 } } })).payload).toEqual({
      devices: { 'dev-1': { a: 1 } },
    });
    expect(await codeOf(checkCommand(roomy, reads, installer, controller, 'apply_config', { devices: { 'dev-9': {} } }))).toMatch(/^NOT_FOUND/);
    expect(await codeOf(checkCommand(roomy, reads, installer, controller, 'apply_config', { devices: { 'calc-1': {} } }))).toBe(
      'FORBIDDEN: Configuring a calculated value needs level 0',
    );
    expect(await codeOf(checkCommand(roomy, reads, expert, controller, 'apply_config', { devices: { 'calc-1': {} } }))).toBe('OK');
  });

  it('a budget already found spent refuses before anything is read', async () => {
    const reads = memoryReads();
    const spent = {
      assertCommandRoom: () => {
        throw new Error('spent');
      },
    };
    await expect(checkCommand(spent, reads, installer, controller, 'apply_config', { devices: { 'dev-1': {} } })).rejects.toThrow('spent');
    expect(reads.calls).toEqual([]);
  });
});
