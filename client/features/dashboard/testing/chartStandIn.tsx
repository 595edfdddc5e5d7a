import type { ChartData } from 'chart.js';
import type { CanvasHTMLAttributes } from 'react';

/**
 * react-chartjs-2's Chart in jsdom tests (no canvas there): a canvas carrying the chart's type and
 * data as attributes, and every other attribute the page gave (role, aria-label).
 */
export function ChartStandIn({
  type,
  data,
  options: _options,
  ...canvas
}: CanvasHTMLAttributes<HTMLCanvasElement> & { type: string; data: ChartData; options?: unknown }) {
  return <canvas data-type={type} data-chart={JSON.stringify(data)} {...canvas} />;
}
