import { planSeries } from './series-plan';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;

describe('series plan', () => {
  it('reads the coarsest resolution with at least the points asked for, in whole multiples of it', () => {
    expect(planSeries(YEAR, 1000, 'UTC', 'UTC')).toEqual({ resolution: '1h', widthMs: 9 * HOUR, grouping: 'fixed', days: 0 });
    expect(planSeries(YEAR, 300, 'UTC', 'UTC')).toEqual({ resolution: '1d', widthMs: 2 * DAY, grouping: 'days', days: 2 });
    expect(planSeries(DAY, 100, 'UTC', 'UTC')).toEqual({ resolution: '5m', widthMs: 15 * MIN, grouping: 'fixed', days: 0 });
    expect(planSeries(HOUR, 100, 'UTC', 'UTC')).toEqual({ resolution: 'raw', widthMs: 36_000, grouping: 'fixed', days: 0 });
  });

  it('gives between points/2 and points buckets', () => {
    for (const range of [HOUR, 6 * HOUR, DAY, 7 * DAY, 30 * DAY, YEAR, 3 * YEAR]) {
      for (const points of [10, 100, 500, 1000, 5000]) {
        const plan = planSeries(range, points, 'UTC', 'UTC');
        const n = range / plan.widthMs;
        expect({ range, points, ok: n <= points + 1e-9 && n >= points / 2 - 1 }).toEqual({ range, points, ok: true });
      }
    }
  });

  it('day buckets in another zone than the day rollup’s come from the hourly rollup', () => {
    expect(planSeries(YEAR, 300, 'UTC', 'Africa/Nairobi')).toEqual({ resolution: '1h', widthMs: 2 * DAY, grouping: 'days', days: 2 });
  });
});
