import { isCuid } from '@paralleldrive/cuid2';
import { CUID_LENGTH, newCuid } from './ids';

describe('newCuid', () => {
  const ids = Array.from({ length: 50_000 }, () => newCuid());

  it('makes CUID2-shaped ids: a letter, then 0-9a-z, 24 characters, that isCuid accepts', () => {
    for (const id of ids) {
      expect(id).toMatch(/^[a-z][0-9a-z]{23}$/);
      expect(id).toHaveLength(CUID_LENGTH);
    }
    expect(ids.every((id) => isCuid(id))).toBe(true);
  });

  it('never repeats one, and uses every character about as often (uniform draws)', () => {
    expect(new Set(ids).size).toBe(ids.length);
    const counts = new Map<string, number>();
    for (const id of ids) for (const c of id.slice(1)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(36);
    const expected = (ids.length * 23) / 36;
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.05);
  });
});
