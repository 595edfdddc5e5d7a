import { lazyChunk } from '../../app/lazyPage';
import type { DashboardChartProps } from './DashboardChart';

/**
 * The dashboards' chart code (chart.js and react-chartjs-2) in its own chunk: only the dashboard
 * routes load it (client/app/pages.ts counts it in their first load), never /login.
 */
export const DASHBOARD_CHART = lazyChunk<DashboardChartProps>('client/features/dashboard/DashboardChart.tsx', () => import('./DashboardChart'));
