import { heartbeatEveryMs, startHeartbeat } from './lease-heartbeat';

describe('lease heartbeat', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('beats at its interval, never two at once, goes on after a failed beat, and stop waits for the beat in flight', async () => {
    let running = 0;
    let most = 0;
    const finish: (() => void)[] = [];
    const errors: unknown[] = [];
    let calls = 0;
    const heartbeat = startHeartbeat(
      () => {
        calls += 1;
        if (calls === 2) return Promise.reject(new Error('database busy'));
        running += 1;
        most = Math.max(most, running);
        return new Promise<void>((r) =>
          finish.push(() => {
            running -= 1;
            r();
          }),
        );
      },
      100,
      (e) => errors.push(e),
    );
    await jest.advanceTimersByTimeAsync(350); // first beat still in flight: the 2nd and 3rd ticks skip
    expect(calls).toBe(1);
    finish.shift()!();
    await jest.advanceTimersByTimeAsync(100); // the failed one
    expect(calls).toBe(2);
    expect(errors).toEqual([new Error('database busy')]);
    await jest.advanceTimersByTimeAsync(100); // and the next one tries again
    expect(calls).toBe(3);
    let stopped = false;
    const stopping = heartbeat.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(500);
    expect(stopped).toBe(false); // waits for the beat in flight …
    expect(calls).toBe(3); // … and starts no other
    finish.shift()!();
    await stopping;
    expect(most).toBe(1);
  });

  it('renews three times per lease', () => {
    expect(heartbeatEveryMs(60)).toBe(20_000);
    expect(heartbeatEveryMs(8)).toBe(2_666);
    expect(heartbeatEveryMs(0.3)).toBe(200);
  });
});
