import { type TTriggerRule, ZTriggerRule } from '../../../../shared/alerts/rules';
import { type CachedStatus, eventNames, initialSchedule, judgeTimerWake, logStatusOf, nextVia, offlineControllers, scalar } from './locked-judgement';
import { sortBatch } from './quiet-batch';
import { initialStatus } from './rule-step';
import { TriggerIndex } from './trigger-index';

const T0 = Date.UTC(2026, 10, 24, 2, 0, 0);
const at = (s: number) => new Date(T0 + s * 1000);
const rule = (r: unknown): TTriggerRule => ZTriggerRule.parse(r);
const cached = (over: Partial<CachedStatus> = {}): CachedStatus => ({ ...initialStatus(), evaluated_at: null, persisted_at: 0, ...over });

describe('locked judgement (pure)', () => {
  const noData = rule({ kind: 'no_data', entity_cuid: 'e', parameter_id: 'p', after_seconds: 60 });
  const low = rule({ kind: 'threshold', entity_cuid: 'e', parameter_id: 'p', op: 'below', value: 20, for_seconds: 30 });

  it('initialSchedule: no_data waits its duration, offline judges now, data and state rules wait for their source', () => {
    expect(initialSchedule(noData, at(0))).toEqual({ next_execution: at(60), via: 'TIMER' });
    expect(initialSchedule(rule({ kind: 'offline' }), at(0))).toEqual({ next_execution: at(0), via: 'TIMER' });
    expect(initialSchedule(low, at(0))).toEqual({ next_execution: null, via: 'DATA' });
    expect(initialSchedule(rule({ kind: 'state', entity_cuid: 'e', key: 'k', op: 'equals', value: 1 }), at(0))).toEqual({ next_execution: null, via: 'STATE' });
    expect(nextVia(low, at(5))).toBe('TIMER');
    expect(nextVia(rule({ kind: 'offline' }), null)).toBe('STATE');
    expect(logStatusOf(low, { via: 'TIMER' })).toBe('SUCCESS_NO_DATA');
    expect(logStatusOf(low, { via: 'DATA', samples: [] })).toBe('SUCCESS');
  });

  it("no_data on the timer: fires once its deadline passed with no newer value, counting from the status's first deadline", () => {
    const r = judgeTimerWake(noData, cached(), { next_execution: at(60) }, at(-500), at(61), null, null);
    expect(r.r.changes).toEqual([expect.objectContaining({ state: 'TRIGGERED', at: at(60) })]);
    // A value stored meanwhile (by any instance, or only cached here) moves the deadline instead.
    const later = judgeTimerWake(noData, cached(), { next_execution: at(60) }, at(-500), at(61), at(30), null);
    expect(later.r.changes).toEqual([]);
    expect(later.next).toEqual(at(90));
    expect(judgeTimerWake(noData, cached(), { next_execution: at(60) }, at(-500), at(61), null, at(40)).next).toEqual(at(100));
  });

  it('a change the timer would make waits while data was judged less than the duration ago (a backfill may still come)', () => {
    const pending = cached({ pending_state: 'TRIGGERED', pending_since: at(0), evaluated_until: at(10), evaluated_at: at(20) });
    const early = judgeTimerWake(low, pending, { next_execution: at(30) }, at(-100), at(40), null, null);
    expect(early.r.changes).toEqual([]);
    expect(early.next).toEqual(at(50));
    const due = judgeTimerWake(low, pending, { next_execution: at(30) }, at(-100), at(51), null, null);
    expect(due.r.changes).toEqual([expect.objectContaining({ state: 'TRIGGERED', at: at(30) })]);
  });

  it('names: a state rule shows its key, a missing parameter its id, no row the defaults; offline controllers count from when they went', () => {
    expect(eventNames(rule({ kind: 'state', entity_cuid: 'e', key: 'mode', op: 'equals', value: 1 }), undefined)).toEqual({
      system: '',
      timezone: 'UTC',
      device: null,
      parameter: 'mode',
      unit: null,
    });
    expect(eventNames(low, { system: 'S', timezone: 'Z', device: 'D', description: null, unit: 'V' })).toEqual({
      system: 'S',
      timezone: 'Z',
      device: 'D',
      parameter: 'p',
      unit: 'V',
    });
    expect(
      offlineControllers(
        [
          { controller_id: 'a', name: 'A', online_state: 'OFFLINE', offline_since: null },
          { controller_id: 'b', name: 'B', online_state: 'ONLINE', offline_since: at(3) },
        ],
        at(9),
      ),
    ).toEqual([
      { controller_id: 'a', name: 'A', offline_since: at(9) },
      { controller_id: 'b', name: 'B', offline_since: null },
    ]);
    expect([scalar(undefined), scalar(1), scalar({ a: 1 })]).toEqual([null, 1, '{"a":1}']);
  });

  it('sortBatch: uncached or moving triggers go under lock; quiet ones move their cached copy and write progress once a minute (always when confirming)', () => {
    const index = new TriggerIndex(['q', 'm', 'n'].map((id) => ({ trigger_cuid: id, system_cuid: 's', created_at: at(0), args: low })));
    const cache = new Map([
      ['q', cached({ persisted_at: at(0).getTime() })],
      ['m', cached()],
    ]);
    const batch = new Map([
      ['q', [{ ts: at(5), value: 50 }]],
      ['m', [{ ts: at(5), value: 1 }]],
      ['n', [{ ts: at(5), value: 50 }]],
      ['gone', [{ ts: at(5), value: 1 }]],
    ]);
    const soon = sortBatch(batch, index, cache, at(30).getTime(), false);
    expect(soon.locked.map(([t]) => t.trigger_cuid)).toEqual(['m', 'n']);
    expect(soon.progress).toEqual([]);
    expect(cache.get('q')).toMatchObject({ evaluated_until: at(5), last_value: 50 });
    expect(sortBatch(new Map([['q', [{ ts: at(6), value: 50 }]]]), index, cache, at(61).getTime(), false).progress.map((p) => p.t.trigger_cuid)).toEqual(['q']);
    expect(sortBatch(new Map([['q', [{ ts: at(7), value: 50 }]]]), index, cache, at(31).getTime(), true).progress.map((p) => p.t.trigger_cuid)).toEqual(['q']);
  });
});
