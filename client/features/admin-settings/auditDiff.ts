import { formatDateTime } from '../../components/formatDate';

export interface AuditChange {
  key: string;
  before: string;
  after: string;
}

/** An instant as the API writes it ('2026-03-05T14:05:09.000Z'): shown like every other date of the portal. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function show(value: unknown): string {
  if (value === undefined) return '-';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    if (value === '') return '""';
    return ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value)) ? formatDateTime(value, { seconds: true }) : value;
  }
  return JSON.stringify(value);
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The keys whose values differ between two snapshots (old → new); non-objects compare whole. */
export function auditDiff(before: unknown, after: unknown): AuditChange[] {
  const b = asRecord(before);
  const a = asRecord(after);
  if (!b && !a) {
    if (before === undefined && after === undefined) return [];
    if (JSON.stringify(before) === JSON.stringify(after)) return [];
    return [{ key: '-', before: show(before ?? undefined), after: show(after ?? undefined) }];
  }
  const keys = [...new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])];
  return keys.filter((k) => JSON.stringify(b?.[k]) !== JSON.stringify(a?.[k])).map((k) => ({ key: k, before: show(b?.[k]), after: show(a?.[k]) }));
}
