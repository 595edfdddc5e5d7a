import { DEVICE_TYPE, type DeviceTypeCode } from '../../../shared/constants/domain';

/**
 * Colours of the dashboards' series (Bootstrap 5.3's palette; the statuses take their badge's
 * colour from statusBadge.ts). Device types: smartphones blue, TVs purple.
 */
export const TYPE_COLORS: Record<DeviceTypeCode, string> = {
  [DEVICE_TYPE.SMARTPHONE]: '#0d6efd',
  [DEVICE_TYPE.TV]: '#6f42c1',
};

/** One colour per device action, in the order of DEVICE_ACTIONS (14 actions, 14 colours). */
export const ACTION_COLORS: readonly string[] = [
  '#dc3545', // LOCK: red, like the locked badge
  '#198754', // UNLOCK: green, like the working badge
  '#0dcaf0', // RELEASE: cyan, like the released badge
  '#0d6efd',
  '#6610f2',
  '#fd7e14',
  '#d63384',
  '#adb5bd',
  '#6f42c1',
  '#20c997',
  '#ffc107',
  '#212529',
  '#495057',
  '#6c757d',
];

/** Series that count devices of every type (devices per group, SIM carriers). */
export const FLEET_COLOR = '#20c997';

/** Height of a horizontal bar chart with `rows` categories: every label keeps room to be read. */
export const barsHeight = (rows: number): number => Math.max(240, rows * 28 + 60);

/** The overdue buckets (1–7, 8–30, 31+ days), from warning to danger. */
export const BUCKET_COLORS: readonly string[] = ['#ffc107', '#fd7e14', '#dc3545'];
