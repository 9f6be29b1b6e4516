import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import type { DailyUsage } from '../api.js';
import { chartSeries, dayAxisRange } from '../format.js';

const HEIGHT = 240;

/**
 * Credits per day as bars (uPlot, canvas); the same figures are in the table below it. The chart
 * is as wide as its box, and follows it when the box changes width (a phone turned, a window
 * resized), so it never widens the page.
 */
export function UsageChart({ days }: { days: DailyUsage[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const bars = uPlot.paths.bars!({ size: [0.7, 40] });
    const plot = new uPlot(
      {
        width: element.clientWidth,
        height: HEIGHT,
        legend: { show: false },
        cursor: { show: true, points: { show: false } },
        scales: {
          // half a day of room either side: a bar is centred on its day, so the first and last
          // bars would otherwise be cut in half at the plot's edges
          x: { time: true, range: (_u, min, max) => dayAxisRange(min, max) },
          y: { range: (_u, _min, max) => [0, Math.max(5, max)] },
        },
        axes: [{}, { label: 'credits' }],
        series: [
          {},
          {
            label: 'credits',
            paths: bars,
            points: { show: false },
            fill: 'rgba(1, 114, 173, 0.6)',
            stroke: 'rgb(1, 114, 173)',
          },
        ],
      },
      chartSeries(days),
      element,
    );
    const resized = new ResizeObserver(() => {
      if (element.clientWidth > 0 && element.clientWidth !== plot.width)
        plot.setSize({ width: element.clientWidth, height: HEIGHT });
    });
    resized.observe(element);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
  }, [days]);
  return (
    <div
      ref={box}
      class="chart"
      role="img"
      aria-label={`Bar chart of credits charged per day over the last ${days.length} days`}
    />
  );
}
