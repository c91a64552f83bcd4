import { SPENT_MEMORY_MS, SpentUntil } from './spent-until';

describe('SpentUntil', () => {
  it('answers the time left until a spent key may have room, for at most SPENT_MEMORY_MS, then forgets it', () => {
    const sut = new SpentUntil(10);
    sut.remember('c1/a', 60_000, 0);
    expect(sut.waitFor('c1/a', 100)).toBe(59_900);
    expect(sut.waitFor('c1/b', 100)).toBe(0);
    expect(sut.waitFor('c1/a', SPENT_MEMORY_MS)).toBe(0); // asked again of the database
    expect(sut.waitFor('c1/a', 100)).toBe(0); // forgotten
  });

  it('forgets a key as soon as it may have room, when that comes first', () => {
    const sut = new SpentUntil(10);
    sut.remember('k', 300, 0);
    expect(sut.waitFor('k', 200)).toBe(100);
    expect(sut.waitFor('k', 300)).toBe(0);
  });

  it('keeps at most its size, the oldest forgotten first', () => {
    const sut = new SpentUntil(2);
    for (const k of ['a', 'b', 'c']) sut.remember(k, 9_000, 0);
    expect([sut.waitFor('a', 0), sut.waitFor('b', 0), sut.waitFor('c', 0)]).toEqual([0, 9_000, 9_000]);
  });
});
