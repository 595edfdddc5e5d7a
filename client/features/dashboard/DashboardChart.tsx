import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  DoughnutController,
  Legend,
  LinearScale,
  Tooltip,
  type ChartData,
  type ChartOptions,
} from 'chart.js';
import { Chart } from 'react-chartjs-2';

// Only what the dashboards draw: doughnuts and (stacked, horizontal) bars.
ChartJS.register(ArcElement, BarController, BarElement, CategoryScale, DoughnutController, Legend, LinearScale, Tooltip);

export interface ChartSeries {
  label: string;
  data: readonly number[];
  /** One colour for the series, or one per value (a doughnut's slices). */
  color: string | readonly string[];
}

export interface DashboardChartProps {
  kind: 'doughnut' | 'bar';
  labels: readonly string[];
  series: readonly ChartSeries[];
  /** Bars of the series on top of each other. */
  stacked?: boolean;
  /** Bars along the x axis (long category names: groups, models). */
  horizontal?: boolean;
  /** The text alternative read instead of the canvas (its aria-label). */
  summary: string;
  /** Height in px (the width follows the container). */
  height: number;
}

const LOCALE = 'es-MX';

function optionsOf({ kind, labels, series, stacked = false, horizontal = false }: DashboardChartProps): ChartOptions<'bar' | 'doughnut'> {
  const legend = { display: kind === 'doughnut' || series.length > 1, position: 'bottom' as const };
  // No animation: the numbers come back every minute, and a chart that grows again each time
  // distracts (and moves for people who asked for reduced motion).
  const base = { locale: LOCALE, animation: false as const, responsive: true, maintainAspectRatio: false, plugins: { legend } };
  if (kind === 'doughnut') return base;
  const countAxis = { stacked, beginAtZero: true, ticks: { precision: 0 } };
  // Every name when there are few (OS versions, brands); the 30 days skip some, level.
  const many = labels.length > 12;
  const categoryAxis = { stacked, ticks: { autoSkip: many, maxRotation: many ? 0 : 45 } };
  return {
    ...base,
    indexAxis: horizontal ? 'y' : 'x',
    scales: horizontal ? { x: countAxis, y: categoryAxis } : { x: categoryAxis, y: countAxis },
  } as ChartOptions<'bar'>;
}

/**
 * One dashboard chart (chart.js in its own chunk, loaded once a dashboard page is interactive). The
 * canvas is an image named by `summary`; the page offers the same numbers as a table too.
 */
export default function DashboardChart(props: DashboardChartProps) {
  const { kind, labels, series, summary, height } = props;
  const data: ChartData<'bar' | 'doughnut'> = {
    labels: [...labels],
    datasets: series.map((s) => ({
      label: s.label,
      data: [...s.data],
      backgroundColor: typeof s.color === 'string' ? s.color : [...s.color],
      ...(kind === 'bar' ? { maxBarThickness: 48 } : {}),
    })),
  };
  return (
    <div style={{ position: 'relative', height }}>
      <Chart type={kind} data={data} options={optionsOf(props)} role="img" aria-label={summary} />
    </div>
  );
}
