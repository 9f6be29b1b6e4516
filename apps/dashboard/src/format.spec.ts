import { chartSeries, dayAxisRange, formatDate, formatDuration, splitList } from './format.js';

describe('dashboard formatting', () => {
  it('shows dates in UTC to the second, and a dash for none', () => {
    expect(formatDate('2026-11-01T10:20:30.456Z')).toBe('2026-11-01 10:20:30 UTC');
    expect(formatDate(null)).toBe('—');
    expect(formatDate('not a date')).toBe('—');
  });

  it('shows durations in ms below a second, else in seconds', () => {
    expect(formatDuration(12)).toBe('12 ms');
    expect(formatDuration(1530)).toBe('1.5 s');
    expect(formatDuration(null)).toBe('—');
  });

  it('splits comma-separated fields into trimmed words', () => {
    expect(splitList(' engineer, ,data scientist ')).toEqual(['engineer', 'data scientist']);
  });

  it('turns days into the chart series (unix seconds at UTC midnight, credits)', () => {
    expect(chartSeries([{ day: '2026-11-01', credits: 3 }])).toEqual([[Date.UTC(2026, 10, 1) / 1000], [3]]);
  });

  it("gives the chart's x axis half a day beyond the first and last day, so their bars are whole", () => {
    const first = Date.UTC(2026, 10, 1) / 1000;
    const last = Date.UTC(2026, 10, 30) / 1000;
    expect(dayAxisRange(first, last)).toEqual([first - 43_200, last + 43_200]);
    expect(dayAxisRange(first, null)).toEqual([first - 43_200, first + 43_200]);
  });
});
