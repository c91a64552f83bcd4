import { OpenedCookies } from './opened-cookies';

describe('OpenedCookies', () => {
  it('opens a cookie once, then answers from the cache', () => {
    const sut = new OpenedCookies<{ n: number }>(10);
    const open = jest.fn((c: string) => ({ n: c.length }));
    expect(sut.get('abc', open)).toEqual({ n: 3 });
    expect(sut.get('abc', open)).toEqual({ n: 3 });
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('keeps nothing for a value that does not open (garbage costs a decryption each time, and no room)', () => {
    const sut = new OpenedCookies<{ n: number }>(10);
    const open = jest.fn(() => undefined);
    expect(sut.get('junk', open)).toBeUndefined();
    expect(sut.get('junk', open)).toBeUndefined();
    expect(open).toHaveBeenCalledTimes(2);
    expect(sut.size).toBe(0);
  });

  it('forgets the least recently used cookie past its size', () => {
    const sut = new OpenedCookies<{ c: string }>(2);
    const open = jest.fn((c: string) => ({ c }));
    sut.get('a', open);
    sut.get('b', open);
    sut.get('a', open); // a used again: b is now the oldest
    sut.get('c', open);
    expect(sut.size).toBe(2);
    open.mockClear();
    sut.get('a', open);
    sut.get('c', open);
    expect(open).not.toHaveBeenCalled();
    sut.get('b', open);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('hands out frozen payloads: one request cannot change what the next one reads', () => {
    const sut = new OpenedCookies<{ ctx: { memberships: { level: number }[] } }>(10);
    const payload = sut.get('a', () => ({ ctx: { memberships: [{ level: 3 }] } }))!;
    expect(() => {
      payload.ctx.memberships[0].level = 0;
    }).toThrow(TypeError);
    expect(() => payload.ctx.memberships.push({ level: 0 })).toThrow(TypeError);
    expect(sut.get('a', () => undefined)!.ctx.memberships).toEqual([{ level: 3 }]);
  });
});
