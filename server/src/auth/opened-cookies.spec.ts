import { OpenedCookies } from './opened-cookies';

describe('OpenedCookies', () => {
  it('answers a kept payload, and nothing for a cookie not kept or forgotten', () => {
    const sut = new OpenedCookies<{ n: number }>(10, 1_000, 100);
    expect(sut.peek('abc')).toBeUndefined();
    sut.keep('abc', { n: 3 }, 10);
    expect(sut.peek('abc')).toEqual({ n: 3 });
    sut.forget('abc');
    expect(sut.peek('abc')).toBeUndefined();
    expect([sut.size, sut.keptBytes]).toEqual([0, 0]);
  });

  it('forgets the least recently used cookie past its number of entries', () => {
    const sut = new OpenedCookies<{ c: string }>(2, 1_000, 100);
    sut.keep('a', { c: 'a' }, 1);
    sut.keep('b', { c: 'b' }, 1);
    sut.peek('a'); // a used again: b is now the oldest
    sut.keep('c', { c: 'c' }, 1);
    expect([sut.peek('a'), sut.peek('b'), sut.peek('c')]).toEqual([{ c: 'a' }, undefined, { c: 'c' }]);
  });

  it('stays within its bytes however many cookies come, and never keeps a payload over the largest entry', () => {
    const sut = new OpenedCookies<{ i: number }>(5_000, 1_000, 300);
    for (let i = 0; i < 100; i++) sut.keep(`cookie-${i}`, { i }, 250);
    expect(sut.keptBytes).toBeLessThanOrEqual(1_000);
    expect(sut.size).toBe(4);
    expect(sut.peek('cookie-99')).toEqual({ i: 99 }); // the newest are the ones kept
    sut.keep('huge', { i: -1 }, 301);
    expect(sut.peek('huge')).toBeUndefined();
    sut.keep('cookie-99', { i: 99 }, 250); // kept again: counted once
    expect(sut.keptBytes).toBe(1_000);
  });

  it('hands out frozen payloads: one request cannot change what the next one reads', () => {
    const sut = new OpenedCookies<{ ctx: { memberships: { level: number }[] } }>(10, 1_000, 100);
    sut.keep('a', { ctx: { memberships: [{ level: 3 }] } }, 10);
    const payload = sut.peek('a')!;
    expect(() => {
      payload.ctx.memberships[0].level = 0;
    }).toThrow(TypeError);
    expect(() => payload.ctx.memberships.push({ level: 0 })).toThrow(TypeError);
    expect(sut.peek('a')!.ctx.memberships).toEqual([{ level: 3 }]);
  });
});
