import { defaultDecimal, exportRange, fromLocalInput, toLocalInput } from './range';

describe('export range presets', () => {
  // 2026-03-29 10:00 UTC: the day Paris moves to summer time (02:00 → 03:00).
  const now = Date.UTC(2026, 2, 29, 10, 0);

  it('today in Paris is the 23-hour day between local midnights', () => {
    const r = exportRange('today', now, 'Europe/Paris')!;
    expect(new Date(r.from).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(new Date(r.to).toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });

  it('yesterday, this month, last month and this year start at local midnights', () => {
    expect(new Date(exportRange('yesterday', now, 'Europe/Paris')!.from).toISOString()).toBe('2026-03-27T23:00:00.000Z');
    expect(new Date(exportRange('this_month', now, 'Europe/Paris')!.from).toISOString()).toBe('2026-02-28T23:00:00.000Z');
    expect(new Date(exportRange('this_month', now, 'Europe/Paris')!.to).toISOString()).toBe('2026-03-31T22:00:00.000Z');
    const last = exportRange('last_month', now, 'Africa/Nairobi')!;
    expect(new Date(last.from).toISOString()).toBe('2026-01-31T21:00:00.000Z');
    expect(new Date(last.to).toISOString()).toBe('2026-02-28T21:00:00.000Z');
    const year = exportRange('this_year', now, 'UTC')!;
    expect([new Date(year.from).toISOString(), new Date(year.to).toISOString()]).toEqual(['2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
    expect(exportRange('custom', now, 'UTC')).toBeNull();
  });

  it('last month of January is December of the year before', () => {
    const jan = Date.UTC(2026, 0, 15, 12);
    const r = exportRange('last_month', jan, 'UTC')!;
    expect([new Date(r.from).toISOString(), new Date(r.to).toISOString()]).toEqual(['2025-12-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z']);
  });

  it('datetime-local values round-trip in the zone', () => {
    const ms = Date.UTC(2026, 6, 1, 8, 30);
    expect(toLocalInput(ms, 'Europe/Paris')).toBe('2026-07-01T10:30');
    expect(fromLocalInput('2026-07-01T10:30', 'Europe/Paris')).toBe(ms);
    expect(fromLocalInput('not a date', 'UTC')).toBeNull();
  });

  it('French defaults to a comma, others to a point', () => {
    expect(defaultDecimal('fr')).toBe(',');
    expect(defaultDecimal('en')).toBe('.');
  });
});
