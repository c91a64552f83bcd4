import { barLayout, formatKwh, monthRange, monthStartIn, periodLabel, yearRange } from '../../client/src/energy/format';
import { homeSections, stateFilterPath } from '../../client/src/home/sections';
import { siteSystemsPath, STATE_COLOURS, worseState } from '../../client/src/map/pins';
import { messages } from '../../client/src/home/i18n';

/** The home page's helpers in the browser code: energy numbers per locale, bars, pin states, links, sections by role. */
describe('energy formatting', () => {
  it('writes kWh per locale (French: narrow spaces for thousands, a comma)', () => {
    expect(formatKwh(1234.5, 'en')).toBe('1,235 kWh');
    expect(formatKwh(12.345, 'en')).toBe('12.3 kWh');
    expect(formatKwh(1234.5, 'fr').replace(/\s/g, ' ')).toBe('1 235 kWh');
    expect(formatKwh(12.345, 'fr')).toBe('12,3 kWh');
    expect(formatKwh(0.456, 'fr')).toBe('0,46 kWh');
  });

  it('labels a period by its own calendar date, whatever the browser zone', () => {
    expect(periodLabel('2026-03-01', 'day', 'en')).toBe('Mar 1');
    expect(periodLabel('2026-03', 'month', 'fr')).toMatch(/^mars 2026$/);
    expect(periodLabel('nonsense', 'day', 'en')).toBe('nonsense');
  });

  it('scales bars to the largest value; null and negative values are empty', () => {
    expect(barLayout([10, 5, null, -1, 0], 100)).toEqual([100, 50, 0, 0, 0]);
    expect(barLayout([null, null], 100)).toEqual([0, 0]);
    expect(barLayout([1000, 0.001], 100)[1]).toBe(1);
  });

  it('this month and the last twelve months start at local midnight of the system’s zone and end now', () => {
    const now = new Date('2026-03-31T22:30:00Z'); // already April 1st in Nairobi (UTC+3), still March 31st in New York
    expect(monthRange(now, 'Africa/Nairobi')).toEqual({ from: new Date('2026-03-31T21:00:00Z'), to: now });
    expect(monthRange(now, 'America/New_York').from).toEqual(new Date('2026-03-01T05:00:00Z')); // EST before the DST change of March 8
    expect(monthRange(now, 'UTC').from).toEqual(new Date('2026-03-01T00:00:00Z'));
    expect(yearRange(now, 'Africa/Nairobi').from).toEqual(new Date('2025-04-30T21:00:00Z'));
    expect(monthStartIn(new Date('2026-01-15T12:00:00Z'), 1, 'Europe/Paris')).toEqual(new Date('2025-11-30T23:00:00Z'));
  });
});

describe('map pins and home sections', () => {
  it('a cluster takes the worst state of its pins', () => {
    expect(worseState('ONLINE', 'ALARM')).toBe('ALARM');
    expect(worseState('UNSTABLE', 'OFFLINE')).toBe('OFFLINE');
    expect(worseState('UNKNOWN', 'ONLINE')).toBe('ONLINE');
    expect(new Set(Object.values(STATE_COLOURS)).size).toBe(5);
  });

  it('links to the systems list filtered by site or state', () => {
    expect(decodeURIComponent(siteSystemsPath('abc'))).toBe('/system?filter={"site_cuid":"abc"}');
    expect(decodeURIComponent(stateFilterPath({ in_alarm: true }))).toBe('/system?filter={"in_alarm":true}');
  });

  it('shows each role its sections: Basic systems and energy, Expert + status, Installer + alarms and commands', () => {
    expect(homeSections(3)).toEqual({ mySystems: true, status: false, alarms: false, commands: false });
    expect(homeSections(2)).toEqual({ mySystems: true, status: true, alarms: false, commands: false });
    expect(homeSections(1)).toEqual({ mySystems: false, status: true, alarms: true, commands: true });
    expect(homeSections(0)).toEqual({ mySystems: false, status: true, alarms: true, commands: true });
  });
});

describe('home messages', () => {
  const keys = (node: unknown, prefix = ''): string[] =>
    Object.entries(node as Record<string, unknown>).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`)));
  it('has the same keys in English and French', () => {
    expect(keys(messages.fr).sort()).toEqual(keys(messages.en).sort());
  });
});
