import { type TTriggerRule, ZTriggerRule } from '../../../../shared/alerts/rules';
import { foldSamples, initialStatus, judgeOffline, movesStatus, nextExecution, type RuleStatus, type Sample, timerStep } from './rule-step';

const T0 = Date.UTC(2026, 10, 24, 2, 0, 0);
const at = (s: number) => new Date(T0 + s * 1000);
const rule = (r: unknown): TTriggerRule => ZTriggerRule.parse(r);
/** Samples [second, value] in order. */
const samples = (...pairs: [number, number | string | null][]): Sample[] => pairs.map(([s, value]) => ({ ts: at(s), value }));
const states = (r: ReturnType<typeof foldSamples>) => r.changes.map((c) => [c.state, (c.at.getTime() - T0) / 1000]);

describe('threshold rules', () => {
  const low = rule({ kind: 'threshold', entity_cuid: 'e', parameter_id: 'battery_soc', op: 'below', value: 20, release_value: 30 });

  it('fires strictly beyond the value and releases only strictly beyond the release value (hysteresis)', () => {
    const r = foldSamples(low, initialStatus(), samples([0, 25], [10, 20], [20, 19.9], [30, 25], [40, 30], [50, 29], [60, 30.1]));
    // 20 is not below 20; 25, 30, 29 are inside the band: no flapping; 30.1 releases.
    expect(states(r)).toEqual([
      ['TRIGGERED', 20],
      ['RELEASED', 60],
    ]);
    expect(r.changes[0]).toMatchObject({ value: 19.9, threshold: 20 });
    expect(r.changes[1]).toMatchObject({ value: 30.1, threshold: 30 });
  });

  it('without release_value releases strictly beyond the value on the other side', () => {
    const high = rule({ kind: 'threshold', entity_cuid: 'e', parameter_id: 'p', op: 'above', value: 50 });
    const r = foldSamples(high, initialStatus(), samples([0, 51], [1, 50], [2, 49]));
    expect(states(r)).toEqual([
      ['TRIGGERED', 0],
      ['RELEASED', 2],
    ]);
  });

  it('for_seconds: fires once the value stayed beyond for the duration (dated when it was complete); a sample back inside breaks it', () => {
    const r1 = rule({ kind: 'threshold', entity_cuid: 'e', parameter_id: 'p', op: 'above', value: 50, for_seconds: 60 });
    const broken = foldSamples(r1, initialStatus(), samples([0, 60], [30, 70], [50, 40], [70, 60], [100, 61]));
    expect(broken.changes).toEqual([]);
    expect(broken.next).toMatchObject({ pending_state: 'TRIGGERED', pending_since: at(70) });
    expect(nextExecution(r1, broken.next, null)).toEqual(at(130));
    const held = foldSamples(r1, broken.next, samples([129, 62], [131, 63]));
    expect(states(held)).toEqual([['TRIGGERED', 130]]);
    expect(held.next.pending_state).toBeNull();
  });

  it('release_for_seconds: releases once the value stayed back for the duration; the band breaks the pending release', () => {
    const r1 = rule({ kind: 'threshold', entity_cuid: 'e', parameter_id: 'p', op: 'below', value: 20, release_value: 25, release_for_seconds: 120 });
    const r = foldSamples(r1, initialStatus(), samples([0, 10], [10, 26], [60, 22], [70, 27], [130, 28], [190, 30]));
    expect(states(r)).toEqual([
      ['TRIGGERED', 0],
      ['RELEASED', 190],
    ]);
  });

  it('the timer completes a pending duration whose data stopped, dated pending_since + for_seconds; not before', () => {
    const r1 = rule({ kind: 'threshold', entity_cuid: 'e', parameter_id: 'p', op: 'above', value: 50, for_seconds: 300 });
    const pending = foldSamples(r1, initialStatus(), samples([0, 55])).next;
    expect(timerStep(r1, pending, at(299), null).changes).toEqual([]);
    const fired = timerStep(r1, pending, at(301), null);
    expect(states(fired)).toEqual([['TRIGGERED', 300]]);
    expect(nextExecution(r1, fired.next, null)).toBeNull();
    // Twice: nothing more.
    expect(timerStep(r1, fired.next, at(400), null).changes).toEqual([]);
  });

  it('ignores values not newer than evaluated_until (late duplicates and older values never flap)', () => {
    const r1 = rule({ kind: 'threshold', entity_cuid: 'e', parameter_id: 'p', op: 'above', value: 50 });
    const first = foldSamples(r1, initialStatus(), samples([10, 60]));
    const late = foldSamples(r1, first.next, samples([5, 10], [10, 10]));
    expect(late.judged).toBe(0);
    expect(late.changes).toEqual([]);
    expect(movesStatus(first.next, late)).toBe(false);
  });

  it('sorts a batch by device time, so the order of arrival inside a batch does not matter', () => {
    const r1 = rule({ kind: 'threshold', entity_cuid: 'e', parameter_id: 'p', op: 'above', value: 50 });
    const r = foldSamples(r1, initialStatus(), samples([30, 40], [10, 60], [20, 60]));
    expect(states(r)).toEqual([
      ['TRIGGERED', 10],
      ['RELEASED', 30],
    ]);
  });

  it('a day of backfill in order gives its history: one change per real crossing', () => {
    const r1 = rule({ kind: 'threshold', entity_cuid: 'e', parameter_id: 'p', op: 'below', value: 20, release_value: 30, for_seconds: 600 });
    // One value a minute for a day: a sine between 5 and 55 with noise of ±3 around the thresholds.
    const day = Array.from({ length: 1440 }, (_, m) => ({ ts: at(m * 60), value: 30 + 25 * Math.sin((m / 1440) * 4 * Math.PI) + (m % 2 ? 3 : -3) }));
    const r = foldSamples(r1, initialStatus(), day);
    expect(r.changes.map((c) => c.state)).toEqual(['TRIGGERED', 'RELEASED', 'TRIGGERED', 'RELEASED']);
    // The same day in two batches gives the same history.
    const a = foldSamples(r1, initialStatus(), day.slice(0, 700));
    const b = foldSamples(r1, a.next, day.slice(700));
    expect([...a.changes, ...b.changes]).toEqual(r.changes);
  });
});

describe('no_data rules', () => {
  const r1 = rule({ kind: 'no_data', entity_cuid: 'e', parameter_id: 'p', after_seconds: 600 });

  it('the timer fires after_seconds after the last value; the next value releases', () => {
    const st = foldSamples(r1, initialStatus(), samples([0, 1], [60, 2])).next;
    expect(nextExecution(r1, st, null)).toEqual(at(660));
    expect(timerStep(r1, st, at(659), null).changes).toEqual([]);
    const fired = timerStep(r1, st, at(700), null);
    expect(states(fired)).toEqual([['TRIGGERED', 660]]);
    expect(nextExecution(r1, fired.next, null)).toBeNull();
    const back = foldSamples(r1, fired.next, samples([900, 3]));
    expect(states(back)).toEqual([['RELEASED', 900]]);
  });

  it('a gap inside a backfill is its history (fired then released); continuous data changes nothing', () => {
    const r = foldSamples(r1, initialStatus(), samples([0, 1], [300, 1], [1500, 1], [1600, 1]));
    expect(states(r)).toEqual([
      ['TRIGGERED', 900],
      ['RELEASED', 1500],
    ]);
  });

  it('with no value ever, counts from the given start', () => {
    expect(states(timerStep(r1, initialStatus(), at(601), at(0)))).toEqual([['TRIGGERED', 600]]);
  });
});

describe('state rules', () => {
  it('equals / differs with for_seconds; a missing key is null', () => {
    const fault = rule({ kind: 'state', entity_cuid: 'e', key: 'mode', op: 'equals', value: 'fault', for_seconds: 10 });
    const r = foldSamples(fault, initialStatus(), samples([0, 'ok'], [5, 'fault'], [14, 'fault'], [16, 'fault'], [20, null]));
    expect(states(r)).toEqual([
      ['TRIGGERED', 15],
      ['RELEASED', 20],
    ]);
    const notOn = rule({ kind: 'state', entity_cuid: 'e', key: 'grid', op: 'differs', value: true });
    expect(
      states(
        foldSamples(notOn, initialStatus(), [
          { ts: at(0), value: true },
          { ts: at(1), value: false },
        ]),
      ),
    ).toEqual([['TRIGGERED', 1]]);
  });
});

describe('offline rules', () => {
  const r1 = rule({ kind: 'offline', after_seconds: 300 }) as Extract<TTriggerRule, { kind: 'offline' }>;
  const st: RuleStatus = initialStatus();

  it('pending while a controller is offline for less than after_seconds, then fires dated offline_since + after_seconds; released when none is offline', () => {
    const offline = [{ controller_id: 'c1', name: 'Farm', offline_since: at(0) }];
    const early = judgeOffline(r1, st, offline, at(100));
    expect(early.changes).toEqual([]);
    expect(early.next_execution).toEqual(at(300));
    const fired = judgeOffline(r1, early.next, offline, at(301));
    expect(states(fired)).toEqual([['TRIGGERED', 300]]);
    expect(fired.changes[0].value).toBe('Farm');
    expect(judgeOffline(r1, fired.next, offline, at(400)).changes).toEqual([]);
    const back = judgeOffline(r1, fired.next, [{ controller_id: 'c1', name: 'Farm', offline_since: null }], at(500));
    expect(states(back)).toEqual([['RELEASED', 500]]);
  });

  it('back online before after_seconds: nothing fires', () => {
    const early = judgeOffline(r1, st, [{ controller_id: 'c1', name: 'Farm', offline_since: at(0) }], at(100));
    const back = judgeOffline(r1, early.next, [{ controller_id: 'c1', name: 'Farm', offline_since: null }], at(200));
    expect(back.changes).toEqual([]);
    expect(back.next.pending_state).toBeNull();
  });
});
