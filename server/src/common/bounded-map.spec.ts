import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  it('keeps at most its size, forgetting the least recently used (touched or written) first', () => {
    const sut = new BoundedMap<string, number>(2);
    sut.set('a', 1);
    sut.set('b', 2);
    expect(sut.touch('a')).toBe(1); // b is now the oldest
    sut.set('c', 3);
    expect([sut.get('a'), sut.get('b'), sut.get('c'), sut.size]).toEqual([1, undefined, 3, 2]);
    sut.set('a', 4); // written again: c is now the oldest
    sut.set('d', 5);
    expect([sut.get('a'), sut.get('c'), sut.get('d')]).toEqual([4, undefined, 5]);
    sut.delete('a');
    expect([sut.touch('a'), sut.size]).toEqual([undefined, 1]);
  });
});
