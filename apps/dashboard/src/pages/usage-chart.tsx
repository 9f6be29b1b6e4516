import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import type { DailyUsage } from '../api.js';
import { chartSeries } from '../format.js';

/** Credits per day as bars (uPlot, canvas); the same figures are in the table below it. */
export function UsageChart({ days }: { days: DailyUsage[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const width = Math.max(320, element.clientWidth);
    const bars = uPlot.paths.bars!({ size: [0.7, 40] });
    const plot = new uPlot(
      {
        width,
        height: 240,
        legend: { show: false },
        cursor: { show: true, points: { show: false } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(5, max)] } },
        axes: [{}, { label: 'credits' }],
        series: [{}, { label: 'credits', paths: bars, points: { show: false }, fill: 'rgba(1, 114, 173, 0.6)', stroke: 'rgb(1, 114, 173)' }],
      },
      chartSeries(days),
      element,
    );
    return () => plot.destroy();
  }, [days]);
  return <div ref={box} class="chart" role="img" aria-label={`Bar chart of credits charged per day over the last ${days.length} days`} />;
}
