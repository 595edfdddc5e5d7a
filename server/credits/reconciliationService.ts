import { CREDIT_MESSAGES as M } from '../../shared/areaMessages/credit';
import { RECONCILIATION_KINDS, RECONCILIATION_LABELS as RL, type ReconciliationKind } from '../../shared/constants/creditLabels';
import { DEVICE_ACTION } from '../../shared/constants/deviceActions';
import {
  RECONCILIATION_SUMMARY_ROWS,
  type ReconciliationCounts,
  type ReconciliationList,
  type ReconciliationQuery,
  type ReconciliationRow,
  type ReconciliationSummaryEvent,
} from '../../shared/contracts/credits';
import { instantAt, todayIn } from '../../shared/credits';
import { record, type AuditActor } from '../audit/auditRepository';
import { UTF8_BOM, csvRow, csvZone } from '../audit/csv';
import type { Db } from '../db/Db';
import { transaction } from '../db/transactionScope';
import type { InventorySettings } from '../devices';
import { WebhooksRepository } from '../webhooks/webhooksRepository';
import type { CsvDownload } from './creditsService';
import { ReconciliationRepository, type ReconciliationRecord } from './reconciliationRepository';

/** The company's local time at which the day's reconciliation.summary is sent. */
export const RECONCILIATION_SUMMARY_AT = '07:00';
/** Rows per query of the export. */
export const RECONCILIATION_EXPORT_BATCH = 2_000;
/** The webhook order key of the summaries (one stream, apart from the devices' and the credits'). */
const SUMMARY_ORDER_KEY = 2 ** 41;
const EXPORT_DATE_TIME_COLUMNS = ['liberado', 'ultimo_reporte'];

/** The device action that resolves a kind (null: none does, a reference is to be corrected). */
const FIX: Record<ReconciliationKind, number | null> = {
  paid_locked: DEVICE_ACTION.UNLOCK,
  overdue_active: DEVICE_ACTION.LOCK,
  paid_not_released: DEVICE_ACTION.RELEASE,
  released_reporting: null,
  credit_without_device: null,
  device_without_credit: null,
};

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

function detailOf(r: ReconciliationRecord): string {
  return r.kind === 'overdue_active' ? RL.detail.overdue_active(r.days_overdue ?? 0, r.lock_days ?? 0) : RL.detail[r.kind]();
}

export function reconciliationRow(r: ReconciliationRecord): ReconciliationRow {
  return {
    kind: r.kind,
    creditReference: r.credit_reference,
    deviceId: r.device_id,
    imei: r.imei,
    deviceType: r.device_type,
    groupId: r.group_id,
    customerName: r.customer_name,
    detail: detailOf(r),
    daysOverdue: r.days_overdue,
    lockDays: r.lock_days,
    releasedAt: iso(r.released_at),
    lastSeenAt: iso(r.last_seen_at),
    fix: FIX[r.kind],
  };
}

export interface ReconciliationSettings {
  timeZone: string;
  inventory: Pick<InventorySettings, 'now'>;
}

/**
 * Conciliación: the financed devices whose state contradicts their credit (the portal's page, its
 * CSV, the integration API), and the daily webhook summary, sent once a day at
 * RECONCILIATION_SUMMARY_AT company time by whichever replica claims the day first.
 */
export class ReconciliationService {
  constructor(
    private readonly db: Db,
    private readonly settings: ReconciliationSettings,
  ) {}

  private now(): Date {
    return this.settings.inventory.now();
  }

  /** GET /v5/credits/reconciliation (and the integration API's): a page of one kind or all, with every kind's count. */
  async list(q: ReconciliationQuery): Promise<ReconciliationList> {
    const now = this.now();
    const today = todayIn(this.settings.timeZone, now);
    const repo = new ReconciliationRepository(this.db);
    const kinds: readonly ReconciliationKind[] = q.kind ? [q.kind] : RECONCILIATION_KINDS;
    const counts = await repo.counts(today, now);
    const rows = await repo.list(kinds, today, now, q.perPage, (q.page - 1) * q.perPage);
    return { data: rows.map(reconciliationRow), total: kinds.reduce((sum, k) => sum + counts[k], 0), counts };
  }

  /** GET /v5/credits/reconciliation/export: records the export, then the rows of the kind (or all), in the list's order. */
  async export(actor: AuditActor, kind: ReconciliationKind | undefined, tz?: string): Promise<CsvDownload> {
    const now = this.now();
    const today = todayIn(this.settings.timeZone, now);
    await transaction(this.db, (tx) =>
      record(tx, { actor, entity: 'credit', action: 'export', detail: JSON.stringify({ reconciliation: kind ?? 'all' }) }),
    );
    const repo = new ReconciliationRepository(this.db);
    const kinds: readonly ReconciliationKind[] = kind ? [kind] : RECONCILIATION_KINDS;
    const zone = csvZone(tz);
    async function* chunks(): AsyncGenerator<string> {
      yield UTF8_BOM + csvRow(zone.header(M.reconciliation.csvColumns, EXPORT_DATE_TIME_COLUMNS));
      for (let offset = 0; ; offset += RECONCILIATION_EXPORT_BATCH) {
        const batch = await repo.list(kinds, today, now, RECONCILIATION_EXPORT_BATCH, offset);
        if (batch.length > 0) {
          yield batch
            .map((r) => {
              const row = reconciliationRow(r);
              return csvRow([
                RL.kinds[row.kind],
                row.creditReference,
                row.imei,
                row.customerName,
                row.detail,
                row.daysOverdue,
                row.lockDays,
                zone.instant(row.releasedAt),
                zone.instant(row.lastSeenAt),
              ]);
            })
            .join('');
        }
        if (batch.length < RECONCILIATION_EXPORT_BATCH) return;
      }
    }
    return { fileName: M.reconciliation.exportFileName(today), chunks: chunks() };
  }

  /**
   * The daily summary: from RECONCILIATION_SUMMARY_AT company time, the first tick of the day on any
   * replica inserts the day's row (ON CONFLICT DO NOTHING) and, in the same transaction, enqueues
   * reconciliation.summary; every other tick of the day finds the row and sends nothing. Returns
   * the number of summaries sent (0 or 1).
   */
  async summaryTick(): Promise<number> {
    const now = this.now();
    const zone = this.settings.timeZone;
    const today = todayIn(zone, now);
    if (now < instantAt(today, RECONCILIATION_SUMMARY_AT, zone)) return 0;
    const repo = new ReconciliationRepository(this.db);
    if (await repo.summarySent(today)) return 0;
    return transaction(this.db, async (tx) => {
      const r = new ReconciliationRepository(tx);
      const counts: ReconciliationCounts = await r.counts(today, now);
      const total = RECONCILIATION_KINDS.reduce((sum, k) => sum + counts[k], 0);
      if (!(await r.claimSummary(today, now, total))) return 0;
      const rows = total === 0 ? [] : await r.list(RECONCILIATION_KINDS, today, now, RECONCILIATION_SUMMARY_ROWS, 0);
      const event: ReconciliationSummaryEvent = { date: today, total, counts, rows: rows.map(reconciliationRow) };
      await new WebhooksRepository(tx).enqueue('reconciliation.summary', SUMMARY_ORDER_KEY, event, now);
      return 1;
    });
  }
}
