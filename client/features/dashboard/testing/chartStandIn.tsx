import type { ChartData } from 'chart.js';
import type { CanvasHTMLAttributes } from 'react';

/**
 * react-chartjs-2's Chart in jsdom tests (no canvas there): a canvas carrying the chart's type,
 * data and bar axis as attributes, and every other attribute the page gave (role, aria-label).
 */
export function ChartStandIn({
  type,
  data,
  options,
  ...canvas
}: CanvasHTMLAttributes<HTMLCanvasElement> & { type: string; data: ChartData; options?: { indexAxis?: string } }) {
  return <canvas data-type={type} data-chart={JSON.stringify(data)} data-index-axis={options?.indexAxis} {...canvas} />;
}
