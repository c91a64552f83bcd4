import { onContact, type OnlineRules, onSweep, type Presence } from './online-state-rules';

const S = 1000;
const rules: OnlineRules = { offlineAfterMs: 90 * S, dropoutGapMs: 45 * S, flapWindowMs: 900 * S, flapThreshold: 3, stableAfterMs: 600 * S };
const t0 = Date.UTC(2026, 0, 1);
const at = (s: number) => new Date(t0 + s * S);

describe('online-state rules', () => {
  it('a first contact of an OFFLINE controller makes it ONLINE; of an ONLINE one changes nothing', () => {
    expect(onContact(null, 'OFFLINE', at(0), rules).transition).toEqual({ state: 'ONLINE', at: at(0) });
    expect(onContact(null, 'ONLINE', at(0), rules).transition).toBeUndefined();
  });

  it('ignores a contact older than the last one (out of order between instances)', () => {
    const p = onContact(null, 'OFFLINE', at(10), rules).next;
    expect(onContact(p, p.state, at(5), rules)).toEqual({ next: p });
  });

  it('counts silences over the gap as dropouts, forgets them after the window, and needs calm time to leave UNSTABLE', () => {
    let p: Presence = onContact(null, 'OFFLINE', at(0), rules).next;
    const step = (s: number) => (p = onContact(p, p.state, at(s), rules).next);
    step(30);
    step(80); // 50 s gap: dropout 1
    step(130); // dropout 2
    expect(p.state).toBe('ONLINE');
    step(180); // dropout 3
    expect(p.state).toBe('UNSTABLE');
    expect(p.dropouts.map((d) => d.getTime())).toEqual([at(30), at(80), at(130)].map((d) => d.getTime()));
    for (let s = 210; s < 180 + 600; s += 30) step(s);
    expect(p.state).toBe('UNSTABLE'); // not yet 10 calm minutes
    step(780);
    expect(p.state).toBe('UNSTABLE'); // 10 calm minutes, but all three dropouts are still in the 15-minute window
    for (let s = 810; s <= 960; s += 30) step(s);
    expect(p.state).toBe('ONLINE'); // at 960: dropout 1 left the window, fewer than 3 remain
  });

  it('the sweep marks silence past the grace period OFFLINE, dated at last contact + grace, once', () => {
    const p = onContact(null, 'OFFLINE', at(0), rules).next;
    expect(onSweep(p, at(89), rules).transition).toBeUndefined();
    const off = onSweep(p, at(300), rules);
    expect(off.transition).toEqual({ state: 'OFFLINE', at: at(90) });
    expect(off.next.dropouts).toEqual([at(0)]);
    expect(onSweep(off.next, at(400), rules).transition).toBeUndefined();
  });

  it('the sweep brings a calm UNSTABLE controller back to ONLINE', () => {
    const p: Presence = { state: 'UNSTABLE', last_seen_at: at(1000), state_since: at(0), online_since: at(300), dropouts: [at(0), at(100), at(200)] };
    expect(onSweep(p, at(1050), rules).transition).toEqual({ state: 'ONLINE', at: at(1050) });
    expect(onSweep({ ...p, online_since: at(600) }, at(1050), rules).transition).toBeUndefined();
  });
});
