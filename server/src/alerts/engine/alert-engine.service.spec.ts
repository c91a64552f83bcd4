import type { PoolClient } from 'pg';
import { type TTriggerRule, ZTriggerRule } from '../../../../shared/alerts/rules';
import type { AlertEngineRepository, StatusRow } from './alert-engine.repository';
import { AlertEngineService, type StatusCache } from './alert-engine.service';
import type { CachedStatus } from './locked-judgement';
import type { ControllerStateRow, StatusWrite, TriggerEvaluationRepository, TriggerEventRow, TriggerLogRow } from './trigger-evaluation.repository';
import { type IndexedTrigger, TriggerIndex, type TriggerRow } from './trigger-index';

/** The rules of AlertEngineService over in-memory stand-ins of its two repositories (no database). */

const T0 = Date.UTC(2026, 10, 24, 2, 0, 0);
const at = (s: number) => new Date(T0 + s * 1000);
const rule = (r: unknown): TTriggerRule => ZTriggerRule.parse(r);

interface Memory {
  triggers: (TriggerRow & { is_active: boolean })[];
  statuses: Map<string, StatusRow>;
  logs: TriggerLogRow[];
  events: TriggerEventRow[];
  muted: Set<string>;
  controllers: (ControllerStateRow & { system_cuid: string })[];
  /** Statements that throw, by method name. */
  failing: Set<string>;
}

const blankStatus = (trigger_cuid: string): StatusRow => ({
  trigger_cuid,
  trigger_state: 'RELEASED',
  state_since: null,
  pending_state: null,
  pending_since: null,
  evaluated_until: null,
  evaluated_at: null,
  last_value: null,
  next_execution: null,
});

/** Both repositories over one memory; a transaction's writes are undone when its work throws. */
function memoryRepositories(m: Memory): { rows: AlertEngineRepository; evaluations: TriggerEvaluationRepository } {
  const fail = (name: string) => {
    if (m.failing.has(name)) throw new Error(`${name} failed`);
  };
  const c = {} as PoolClient;
  const rows: AlertEngineRepository = {
    async transaction(_job, work) {
      const before = { statuses: new Map([...m.statuses].map(([k, v]) => [k, { ...v }])), logs: [...m.logs], events: [...m.events] };
      try {
        return await work(c);
      } catch (e) {
        m.statuses = before.statuses;
        m.logs = before.logs;
        m.events = before.events;
        throw e;
      }
    },
    activeTriggers: async () => m.triggers.filter((t) => t.is_active),
    activeStatuses: async () => [...m.statuses.values()].filter((s) => m.triggers.find((t) => t.trigger_cuid === s.trigger_cuid)?.is_active),
    async insertStatuses(_job, list) {
      const made: StatusRow[] = [];
      for (const s of list) {
        if (m.statuses.has(s.trigger_cuid)) continue;
        const row = { ...blankStatus(s.trigger_cuid), next_execution: s.next_execution };
        m.statuses.set(s.trigger_cuid, row);
        made.push(row);
      }
      return made;
    },
    fingerprint: async () => `${m.triggers.length}`,
    async writeQuietProgress(_job, items, when) {
      const done: string[] = [];
      for (const i of items) {
        const s = m.statuses.get(i.trigger_cuid);
        if (!s || s.trigger_state !== i.state || s.pending_state || (s.evaluated_until && i.evaluated_until && s.evaluated_until >= i.evaluated_until))
          continue;
        Object.assign(s, { evaluated_until: i.evaluated_until, last_value: i.last_value, evaluated_at: when });
        done.push(i.trigger_cuid);
      }
      return done;
    },
    storedAfter: async () => [],
    systemOfController: async (_job, id) => m.controllers.find((x) => x.controller_id === id)?.system_cuid ?? null,
    claimDue: async (_job, _c, now) => [...m.statuses.values()].filter((s) => s.next_execution && s.next_execution <= now),
    async clearNextExecution(_job, _c, id) {
      m.statuses.get(id)!.next_execution = null;
    },
  };
  const evaluations: TriggerEvaluationRepository = {
    lockActiveTrigger: async (_job, _c, id) => !!m.triggers.find((t) => t.trigger_cuid === id && t.is_active),
    async lockStatus(_job, _c, id) {
      if (!m.statuses.has(id)) m.statuses.set(id, blankStatus(id));
      return { ...m.statuses.get(id)! };
    },
    lastStoredAt: async () => null,
    async insertLog(_job, _c, log) {
      fail('insertLog');
      m.logs.push(log);
    },
    async insertEvent(_job, _c, event) {
      fail('insertEvent');
      m.events.push(event);
    },
    async writeStatus(_job, _c, w: StatusWrite) {
      const s = m.statuses.get(w.trigger_cuid)!;
      Object.assign(s, {
        trigger_state: w.state,
        state_since: w.state_since,
        pending_state: w.pending_state,
        pending_since: w.pending_since,
        evaluated_until: w.evaluated_until,
        evaluated_at: w.evaluated_at,
        last_value: w.last_value,
        next_execution: w.next_execution,
      });
    },
    stateOf: async (_job, _c, id) => m.statuses.get(id)?.trigger_state,
    async markFailed() {},
    deviceMuted: async (_job, _c, entity) => m.muted.has(entity),
    namesOf: async () => ({ system: 'Farm', timezone: 'Africa/Nairobi', device: 'Battery bank', description: 'State of charge', unit: '%' }),
    controllersOf: async (_job, _c, system, id) => m.controllers.filter((x) => x.system_cuid === system && (id === null || x.controller_id === id)),
  };
  return { rows, evaluations };
}

describe('AlertEngineService', () => {
  let m: Memory;
  let now: Date;
  let sut: AlertEngineService;
  let cache: StatusCache;
  const low = rule({ kind: 'threshold', entity_cuid: 'battery', parameter_id: 'soc', op: 'below', value: 20, release_value: 30 });
  const trigger = (id: string, r: TTriggerRule, system_cuid = 'farm'): IndexedTrigger => ({ trigger_cuid: id, system_cuid, created_at: at(0), rule: r });

  beforeEach(() => {
    m = { triggers: [], statuses: new Map(), logs: [], events: [], muted: new Set(), controllers: [], failing: new Set() };
    now = at(100);
    const { rows, evaluations } = memoryRepositories(m);
    sut = new AlertEngineService(rows, evaluations, { now: () => now });
    cache = new Map();
  });

  const add = (t: IndexedTrigger, is_active = true) =>
    m.triggers.push({ trigger_cuid: t.trigger_cuid, system_cuid: t.system_cuid, created_at: t.created_at, args: t.rule, is_active });

  it('load indexes the active triggers and gives new ones their first schedule (no_data counts from now, offline judges now)', async () => {
    add(trigger('t1', low));
    add(trigger('t2', rule({ kind: 'no_data', entity_cuid: 'battery', parameter_id: 'soc', after_seconds: 60 })));
    add(trigger('t3', rule({ kind: 'offline' })));
    add(trigger('t4', low), false);
    m.statuses.set('t1', { ...blankStatus('t1'), trigger_state: 'TRIGGERED', state_since: at(5) });
    const { index, statuses } = await sut.load();
    expect([...index.triggers.keys()]).toEqual(['t1', 't2', 't3']);
    expect(statuses.get('t1')).toMatchObject({ state: 'TRIGGERED', state_since: at(5), persisted_at: now.getTime() });
    expect(m.statuses.get('t1')!.trigger_state).toBe('TRIGGERED');
    expect(m.statuses.get('t2')!.next_execution).toEqual(at(160));
    expect(m.statuses.get('t3')!.next_execution).toEqual(now);
    expect(m.statuses.has('t4')).toBe(false);
  });

  it('a value beyond the threshold: one log row, one PENDING event with the names, the status and the cache moved', async () => {
    const t = trigger('t1', low);
    add(t);
    const events = await sut.evaluate(cache, t, { via: 'DATA', samples: [{ ts: at(50), value: 12 }] });
    expect(events).toBe(1);
    expect(m.logs).toEqual([
      expect.objectContaining({ trigger_cuid: 't1', processing_status: 'SUCCESS', trigger_state: 'TRIGGERED', ts: at(50), via: 'DATA' }),
    ]);
    expect(m.events).toEqual([
      expect.objectContaining({
        trigger_cuid: 't1',
        log_cuid: m.logs[0].log_cuid,
        value: expect.objectContaining({
          state: 'TRIGGERED',
          value: 12,
          threshold: 20,
          device: 'Battery bank',
          parameter: 'State of charge',
          unit: '%',
          system_cuid: 'farm',
          time: at(50).toISOString(),
        }),
      }),
    ]);
    expect(m.statuses.get('t1')).toMatchObject({ trigger_state: 'TRIGGERED', state_since: at(50), evaluated_at: now, evaluated_until: at(50) });
    expect(cache.get('t1')).toMatchObject({ state: 'TRIGGERED', persisted_at: now.getTime() });
  });

  it('a value that moves nothing writes no log and no event; a paused or deleted trigger is not judged', async () => {
    const t = trigger('t1', low);
    add(t);
    expect(await sut.evaluate(cache, t, { via: 'DATA', samples: [{ ts: at(50), value: 55 }] })).toBe(0);
    expect(m.logs).toEqual([]);
    expect(m.statuses.get('t1')).toMatchObject({ trigger_state: 'RELEASED', evaluated_until: at(50) });
    const paused = trigger('t2', low);
    add(paused, false);
    expect(await sut.evaluate(cache, paused, { via: 'DATA', samples: [{ ts: at(60), value: 1 }] })).toBe(0);
    expect(m.statuses.has('t2')).toBe(false);
  });

  it('a muted device: its state rule logs the change (marked muted) and moves its status, but makes no event', async () => {
    const t = trigger('t1', rule({ kind: 'state', entity_cuid: 'battery', key: 'mode', op: 'equals', value: 'fault' }));
    add(t);
    m.muted.add('battery');
    expect(await sut.evaluate(cache, t, { via: 'STATE', samples: [{ ts: at(50), value: 'fault' }] })).toBe(0);
    expect(m.logs).toEqual([expect.objectContaining({ trigger_state: 'TRIGGERED', query: expect.objectContaining({ muted: true }) })]);
    expect(m.events).toEqual([]);
    expect(m.statuses.get('t1')!.trigger_state).toBe('TRIGGERED');
  });

  it('a failing write rolls the evaluation back and leaves a PROCESSING_ERROR log row, state unchanged', async () => {
    const t = trigger('t1', low);
    add(t);
    m.failing.add('insertEvent');
    expect(await sut.evaluate(cache, t, { via: 'DATA', samples: [{ ts: at(50), value: 12 }] })).toBe(0);
    m.failing.clear();
    expect(m.events).toEqual([]);
    expect(m.logs).toEqual([
      expect.objectContaining({
        processing_status: 'PROCESSING_ERROR',
        trigger_state: 'RELEASED',
        query: expect.objectContaining({ error: 'insertEvent failed' }),
      }),
    ]);
    expect(m.statuses.get('t1')?.trigger_state ?? 'RELEASED').toBe('RELEASED');
  });

  it('an offline rule names the controller that went offline and waits its after_seconds on the timer', async () => {
    const t = trigger('t1', rule({ kind: 'offline', after_seconds: 60 }));
    add(t);
    m.controllers.push({ controller_id: 'c1', name: 'Cerbo', online_state: 'OFFLINE', offline_since: at(80), system_cuid: 'farm' });
    m.controllers.push({ controller_id: 'c2', name: 'Elsewhere', online_state: 'OFFLINE', offline_since: at(0), system_cuid: 'other' });
    expect(await sut.evaluate(cache, t, { via: 'STATE' })).toBe(0);
    expect(m.statuses.get('t1')).toMatchObject({ pending_state: 'TRIGGERED', next_execution: at(140) });
    expect(m.logs[0]).toMatchObject({
      processing_status: 'SUCCESS_NO_DATA',
      via: 'TIMER',
      query: expect.objectContaining({ controllers: [{ controller_id: 'c1', offline_since: at(80).toISOString() }] }),
    });
    now = at(150);
    expect(await sut.evaluate(cache, t, { via: 'TIMER' })).toBe(1);
    expect(m.events[0].value).toMatchObject({ state: 'TRIGGERED', device: 'Cerbo', time: at(140).toISOString() });
  });

  it("offlineRulesFor: the rules of the controller's system, for any controller or for this one", async () => {
    const any = trigger('t1', rule({ kind: 'offline' }));
    const mine = trigger('t2', rule({ kind: 'offline', controller_id: 'c1' }));
    const another = trigger('t3', rule({ kind: 'offline', controller_id: 'c9' }));
    const index = new TriggerIndex(
      [any, mine, another].map((t) => ({ trigger_cuid: t.trigger_cuid, system_cuid: t.system_cuid, created_at: t.created_at, args: t.rule })),
    );
    m.controllers.push({ controller_id: 'c1', name: 'Cerbo', online_state: null, offline_since: null, system_cuid: 'farm' });
    expect((await sut.offlineRulesFor(index, 'c1')).map((t) => t.trigger_cuid)).toEqual(['t1', 't2']);
    expect(await sut.offlineRulesFor(index, 'unknown')).toEqual([]);
  });

  it('writeProgress: the rows still as cached are written (the cached copy says so), the others are answered for a locked evaluation', async () => {
    const a = trigger('a', low);
    const b = trigger('b', low);
    m.statuses.set('a', blankStatus('a'));
    m.statuses.set('b', { ...blankStatus('b'), trigger_state: 'TRIGGERED', state_since: at(1) });
    const st = (state: 'RELEASED' | 'TRIGGERED'): CachedStatus => ({
      state,
      state_since: null,
      pending_state: null,
      pending_since: null,
      evaluated_until: at(40),
      last_value: 50,
      evaluated_at: null,
      persisted_at: 0,
    });
    const items = [
      { t: b, st: st('RELEASED') },
      { t: a, st: st('RELEASED') },
    ];
    expect((await sut.writeProgress(items, now.getTime())).map((t) => t.trigger_cuid)).toEqual(['b']);
    expect(items.map((i) => i.t.trigger_cuid)).toEqual(['a', 'b']);
    expect(items[0].st).toMatchObject({ persisted_at: now.getTime(), evaluated_at: now });
    expect(items[1].st.persisted_at).toBe(0);
    expect(m.statuses.get('a')).toMatchObject({ evaluated_until: at(40), evaluated_at: now });
    expect(await sut.writeProgress([], now.getTime())).toEqual([]);
  });
});
