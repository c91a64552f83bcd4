import { ageLabel, axisLabel, formatValue, pointsForWidth, presetRange, PRESET_MS, RANGE_PRESETS } from './chart-time';

describe('system chart helpers', () => {
  it('has presets from an hour to a year, ending at the next whole minute', () => {
    expect(RANGE_PRESETS).toEqual(['1h', '6h', '24h', '7d', '30d', '1y']);
    const now = Date.UTC(2025, 5, 1, 10, 30, 20);
    const r = presetRange('1h', now);
    expect(r.to).toBe(Date.UTC(2025, 5, 1, 10, 31));
    expect(r.to - r.from).toBe(PRESET_MS['1h']);
    expect(presetRange('1y', now).to - presetRange('1y', now).from).toBe(365 * 86_400_000);
  });

  it('asks about one point per pixel, within the server limits', () => {
    expect(pointsForWidth(1000)).toBe(1000);
    expect(pointsForWidth(9000)).toBe(5000);
    expect(pointsForWidth(10)).toBe(50);
    expect(pointsForWidth(0)).toBe(500);
  });

  it('labels the axis in the system time zone, not the browser one', () => {
    const t = Date.UTC(2025, 0, 15, 21, 5); // 00:05 on the 16th in Nairobi (UTC+3)
    expect(axisLabel(t, 3_600_000, 'en-GB', 'Africa/Nairobi')).toBe('00:05');
    expect(axisLabel(t, 3_600_000, 'en-GB', 'UTC')).toBe('21:05');
    expect(axisLabel(t, 86_400_000, 'en-GB', 'Africa/Nairobi')).toBe('16 Jan');
    expect(axisLabel(t, 60 * 86_400_000, 'en-GB', 'Africa/Nairobi')).toBe('Jan 2025');
  });

  it('shows the age of a value and formats values', () => {
    const now = Date.UTC(2025, 0, 1, 12);
    expect(ageLabel(null, now, 'en')).toBeNull();
    expect(ageLabel(now - 5 * 60_000, now, 'en')).toBe('5 min. ago');
    expect(formatValue(null, 'en')).toBe('—');
    expect(formatValue(51.234, 'en')).toBe('51.2');
    expect(formatValue(1234.5, 'en')).toBe('1,235');
  });
});
