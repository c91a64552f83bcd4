import { BackgroundPacer } from './background-pacer';

describe('BackgroundPacer', () => {
  const pacer = (utilization: number, busy = 0.5) => {
    let t = 0;
    const sut = new BackgroundPacer(
      busy,
      2,
      1000,
      () => (t += 150),
      () => ({ utilization }),
    );
    sut.current(); // first window measured
    return sut;
  };

  it('never holds a long export back while the event loop has room', () => {
    expect(pacer(0.2).pauseAfter(80)).toBe(0);
  });

  it('makes a long export wait twice its last chunk while the event loop is busy, at most the longest pause', () => {
    expect(pacer(0.9).pauseAfter(80)).toBe(160);
    expect(pacer(0.9).pauseAfter(5000)).toBe(1000);
  });

  it('is off at 0', () => {
    expect(pacer(1, 0).pauseAfter(80)).toBe(0);
  });
});
