import { checkConfig, SimCommandRunner } from './commands';

const future = () => new Date(Date.now() + 60_000).toISOString();
const msg = (id: string, kind: string, payload: object, not_after = future()) => ({ id, kind, payload, not_after, requested_at: new Date().toISOString() });

describe('a simulated controller’s commands', () => {
  const runner = () =>
    new SimCommandRunner(
      { controller: { log_interval_s: 60 }, devices: { battery00000001: { battery_min_soc: 20, max_charge_current: 50 } } },
      { commandDelayMs: 0 },
    );

  it('applies a configuration as a merge patch and answers with the full configurations it touched', async () => {
    const r = runner();
    const ack = await r.handle(msg('apply-0001', 'apply_config', { devices: { battery00000001: { battery_min_soc: 30, max_charge_current: null } } }))!.answer;
    expect(ack).toEqual({
      id: 'apply-0001',
      status: 'SUCCESS',
      message: 'configuration applied',
      applied_config: { devices: { battery00000001: { battery_min_soc: 30 } } },
    });
    expect(r.config.devices.battery00000001).toEqual({ battery_min_soc: 30 });
  });

  it('refuses a bad configuration with the reason and changes nothing', async () => {
    const r = runner();
    const bad = await r.handle(
      msg('apply-0002', 'apply_config', { controller: { log_interval_s: 5 }, devices: { battery00000001: { battery_min_soc: 140 } } }),
    )!.answer;
    expect(bad).toEqual({ id: 'apply-0002', status: 'FAILURE', message: 'device battery00000001: battery_min_soc must be a number from 0 to 100 (got 140)' });
    expect(r.config).toEqual({ controller: { log_interval_s: 60 }, devices: { battery00000001: { battery_min_soc: 20, max_charge_current: 50 } } });
    const unknown = await r.handle(msg('apply-0003', 'apply_config', { devices: { nobody: { x: 1 } } }))!.answer;
    expect(unknown).toMatchObject({ status: 'FAILURE', message: 'unknown device nobody' });
  });

  it('answers a repeated id with the same answer and never runs it twice', async () => {
    const r = runner();
    const first = await r.handle(msg('apply-0004', 'apply_config', { controller: { log_interval_s: 30 } }))!.answer;
    r.config.controller.log_interval_s = 99;
    const again = r.handle(msg('apply-0004', 'apply_config', { controller: { log_interval_s: 30 } }))!;
    expect(await again.answer).toEqual(first);
    expect(r.config.controller.log_interval_s).toBe(99);
  });

  it('answers past not_after with FAILURE expired; restart asks for a reconnect once; declared commands succeed', async () => {
    const r = runner();
    expect(await r.handle(msg('late-00001', 'restart', {}, new Date(Date.now() - 1000).toISOString()))!.answer).toEqual({
      id: 'late-00001',
      status: 'FAILURE',
      message: 'expired',
    });
    const restart = r.handle(msg('restart-001', 'restart', {}))!;
    expect(restart.restart).toBe(true);
    expect(await restart.answer).toMatchObject({ status: 'SUCCESS' });
    expect(r.handle(msg('restart-001', 'restart', {}))!.restart).toBe(false);
    expect(await r.handle(msg('genset-0001', 'genset_start', {}))!.answer).toMatchObject({ status: 'SUCCESS', message: 'genset_start done' });
    expect(r.handle({ not: 'a command' })).toBeUndefined();
  });

  it('checks configurations by their keys', () => {
    expect(checkConfig({ battery_min_soc: 50, battery_max_soc: 40 })).toBe('battery_min_soc must not be above battery_max_soc');
    expect(checkConfig({ max_charge_current: -1 })).toMatch(/≥ 0/);
    expect(checkConfig({ export_limit_w: 5000, battery_min_soc: 10, battery_max_soc: 95, log_interval_s: 60, mode: 'eco' })).toBeUndefined();
  });
});
