import { ZIsoDate } from './zod-fields';

describe('ZIsoDate', () => {
  it('takes calendar dates that exist', () => {
    for (const ok of ['2026-11-21', '2024-02-29', '1999-12-31']) expect(ZIsoDate.safeParse(ok).success).toBe(true);
  });

  it('refuses impossible dates and other shapes with a message', () => {
    for (const bad of ['2025-13-45', '2025-02-29', '2026-04-31', '2026-1-2', 'next Tuesday', '2026-11-21T00:00:00Z']) {
      const r = ZIsoDate.safeParse(bad);
      expect({ bad, ok: r.success }).toEqual({ bad, ok: false });
      expect(r.error?.issues[0].message).toMatch(/date/i);
    }
  });
});
