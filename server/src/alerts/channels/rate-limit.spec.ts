import { SlidingWindows } from './rate-limit';

describe('SlidingWindows', () => {
  const perChat = [{ key: 'chat:1', max: 1, perMs: 1000 }];

  it('books the next message one window after the last', () => {
    let t = 5_000.25;
    const w = new SlidingWindows(() => t);
    expect(w.waitFor(perChat)).toBe(0);
    w.book(perChat, 0);
    t += 400;
    expect(w.waitFor(perChat)).toBeCloseTo(600, 6);
    expect(w.book(perChat, 600)).toBeCloseTo(6_000.25, 6);
  });

  it('waitUntil checks the clock again when a timer fired early', async () => {
    // The clock a timer sees lags: after sleeping the 10 ms left, only 9.5 ms have passed.
    const readings = [990, 999.5, 1000];
    const seen: number[] = [];
    const w = new SlidingWindows(() => {
      const r = readings.shift() ?? 1000;
      seen.push(r);
      return r;
    });
    await w.waitUntil(1000);
    expect(seen).toEqual([990, 999.5, 1000]);
  });
});
