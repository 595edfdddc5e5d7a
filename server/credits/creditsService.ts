import { FIELD_LABELS } from '../../shared/constants/fieldLabels';
import { CREDIT_LABELS, type PaymentSource } from '../../shared/constants/creditLabels';
import { CREDIT_MESSAGES as M } from '../../shared/areaMessages/credit';
import { INVENTORY_MESSAGES } from '../../shared/areaMessages/inventory';
import {
  creditFilterFields,
  paymentResultResponse,
  type CreditBody,
  type CreditDetail,
  type CreditFilter,
  type CreditList,
  type CreditListQuery,
  type CreditStep,
  type CreditSummary,
  type DeviceCredit,
  type IntegrationCredit,
  type PaymentBody,
  type PaymentResult,
} from '../../shared/contracts/credits';
import { CREDIT_IMPORT_SHOWN, type CreditImportResult } from '../../shared/contracts/creditImport';
import type { ImportQuery } from '../../shared/contracts/deviceImport';
import { addDays, formatAmount, instantAt, todayIn, type Installment } from '../../shared/credits';
import { offlineCutoff } from '../../shared/deviceStatus';
import { record, type AuditActor } from '../audit/auditRepository';
import { UTF8_BOM, csvRow, csvZone } from '../audit/csv';
import type { Db, Queryable } from '../db/Db';
import { transaction } from '../db/transactionScope';
import { AppError } from '../errors';
import { DeviceRepository, type InventorySettings } from '../devices';
import { WebhooksRepository } from '../webhooks/webhooksRepository';
import type { CollectionEngine } from './collectionEngine';
import { CollectionRepository, type StepRow } from './collectionRepository';
import { creditImportTemplate, readPaymentCsv, readScheduleCsv } from './creditCsv';
import { CreditRepository, type CreditFields, type CreditRecord } from './creditRepository';
import { creditDetail, derivedOf, integrationCredit, paymentResponse, rowResponse, standingOf, standingResponse, unpaidByDue } from './creditViews';
import type { CreditImportKind } from '../../shared/constants/limits';

/** The credits' settings: the company's time zone (its calendar dates are the due dates) and the inventory's clock. */
export interface CreditSettings {
  timeZone: string;
  inventory: InventorySettings;
  /** The collection policy's engine: a change to a credit re-plans it in the change's transaction. */
  collection?: Pick<CollectionEngine, 'reevaluateIn' | 'nextStep'>;
}

/** The policy's steps a credit's detail lists (newest first). */
export const CREDIT_STEPS_SHOWN = 50;

const stepResponse = (r: StepRow): CreditStep => ({
  key: r.step_key,
  installment: r.installment,
  kind: r.kind,
  outcome: r.outcome,
  action: r.action,
  devices: r.device_ids,
  skippedDevices: r.skipped_devices,
  reason: r.reason,
  at: new Date(r.at).toISOString(),
});

/** Devices a credit's answers list at most. */
export const CREDIT_DEVICES_MAX = 100;
/** Credits per query of the export (keyset on the id). */
export const CREDIT_EXPORT_BATCH = 2_000;
/**
 * A credit's webhook events are delivered in order by their `order_key`: devices use their id,
 * jobs minus theirs (migration 0015), credits this base plus theirs, far above any device id.
 */
export const CREDIT_ORDER_KEY_BASE = 2 ** 40;

const notFound = () => new AppError(404, 'CREDIT_NOT_FOUND', M.credits.notFound);
const P = FIELD_LABELS.payments;

/** The filter part of a list query: every field of the shared filter, nothing else. */
export const filterOf = (q: CreditFilter): CreditFilter =>
  Object.fromEntries(Object.keys(creditFilterFields).map((k) => [k, q[k as keyof CreditFilter]])) as CreditFilter;

/** What the audit log keeps of a credit: its fields and its schedule. */
const snapshot = (c: CreditFields, installments: readonly Installment[]) => ({
  reference: c.reference,
  customerName: c.customerName,
  customerPhone: c.customerPhone,
  currency: c.currency,
  cancelled: c.cancelled,
  installments: installments.map((i) => ({ number: i.number, dueDate: i.dueDate, amount: formatAmount(i.amountCents) })),
});
const storedFields = (c: CreditRecord): CreditFields => ({
  reference: c.reference,
  customerName: c.customer_name,
  customerPhone: c.customer_phone,
  currency: c.currency,
  cancelled: c.cancelled_at !== null,
});

/** What a credit leaves unpaid follows from these: its schedule, what stands paid, whether it is cancelled, its currency. */
interface UnpaidOf {
  installments: readonly Installment[];
  paidCents: number;
  cancelled: boolean;
  currency: string;
}
const unpaidOf = (c: CreditRecord, installments: readonly Installment[]): UnpaidOf => ({
  installments,
  paidCents: c.paid_cents,
  cancelled: c.cancelled_at !== null,
  currency: c.currency,
});

/** Keeps credit_unpaid_by_due in step with a credit's change from `before` (absent: a new credit) to `after`. */
async function moveUnpaid(repo: CreditRepository, before: UnpaidOf | undefined, after: UnpaidOf): Promise<void> {
  const deltas = new Map<string, Map<string, number>>();
  const add = (u: UnpaidOf, sign: number) => {
    const byDue = deltas.get(u.currency) ?? new Map<string, number>();
    deltas.set(u.currency, byDue);
    for (const [due, cents] of unpaidByDue(u.installments, u.paidCents, u.cancelled)) byDue.set(due, (byDue.get(due) ?? 0) + sign * cents);
  };
  if (before) add(before, -1);
  add(after, 1);
  for (const [currency, byDue] of deltas)
    await repo.moveUnpaid(
      currency,
      [...byDue].filter(([, cents]) => cents !== 0),
    );
}

/** The export's date-time column (ISO 8601 in the download's zone). */
const EXPORT_DATE_TIME_COLUMNS = ['alta'];

export interface CsvDownload {
  fileName: string;
  /** The file in pieces (BOM and header first), read from the database batch by batch. */
  chunks: AsyncIterable<string>;
}

/**
 * Credits: the lender's PUT of a credit and its schedule, payments and their reversals (each one
 * transaction with the credit's row locked, its derived columns, audit row and webhook events in
 * it), the portfolio's list, summary and export, a credit's detail and a device's credit.
 */
export class CreditsService {
  constructor(
    private readonly db: Db,
    private readonly settings: CreditSettings,
  ) {}

  private now(): Date {
    return this.settings.inventory.now();
  }

  /** The company's date at `now`: due dates are compared with it. */
  private today(now = this.now()): string {
    return todayIn(this.settings.timeZone, now);
  }

  /** The company's day `today` as instants: the payments dated today are those in [start, end). */
  private paymentDay(today: string): { start: Date; end: Date } {
    const zone = this.settings.timeZone;
    return { start: instantAt(today, '00:00', zone), end: instantAt(addDays(today, 1), '00:00', zone) };
  }

  private cutoff(): Date {
    return offlineCutoff(this.now(), this.settings.inventory.offlineAfterHours);
  }

  // The lender's writes ----------------------------------------------------------------------

  /**
   * Creates or replaces a credit and its schedule (the payments recorded are allocated again over
   * the new one). The IMEIs given get the credit's reference; one carrying another credit's is a
   * 409, an unknown one a 404, each naming its place in `imeis`. Nothing is written on an error.
   */
  async put(actor: AuditActor, reference: string, body: CreditBody): Promise<{ created: boolean; credit: IntegrationCredit }> {
    const installments: Installment[] = body.installments.map((i) => ({ number: i.number, dueDate: i.dueDate, amountCents: i.amount }));
    const fields = {
      reference,
      customerName: body.customerName,
      customerPhone: body.customerPhone,
      currency: body.currency,
      cancelled: body.cancelled,
    };
    return transaction(this.db, async (tx) => {
      const repo = new CreditRepository(tx);
      let before = await repo.lockByReference(reference);
      let id = before?.id;
      if (id === undefined) {
        id = await repo.insert(fields, derivedOf(installments, 0));
        // Another request created the reference meanwhile: replace that one.
        if (id === undefined) before = await repo.lockByReference(reference);
        id ??= before!.id;
      }
      const stored = before?.reference ?? reference;
      await this.assignDevices(tx, actor, stored, body.imeis);
      const previous = before ? (await repo.installments([id])).get(id)! : [];
      if (before) await repo.update(id, fields);
      await repo.replaceInstallments(id, installments);
      const paidCents = before ? await repo.activePaidCents(id) : 0;
      if (before) await repo.setDerived(id, derivedOf(installments, paidCents));
      await moveUnpaid(repo, before && unpaidOf(before, previous), {
        installments,
        paidCents,
        cancelled: fields.cancelled,
        currency: fields.currency,
      });
      await this.settings.collection?.reevaluateIn(tx, id, this.now());
      await record(tx, {
        actor,
        entity: 'credit',
        entityId: stored,
        action: before ? 'update' : 'create',
        before: before && snapshot(storedFields(before), previous),
        after: snapshot({ ...fields, reference: stored }, installments),
      });
      return { created: !before, credit: await this.integrationView(tx, stored) };
    });
  }

  /** Gives the devices of `imeis` the credit's reference, refusing one that belongs to another credit. */
  private async assignDevices(tx: Queryable, actor: AuditActor, reference: string, imeis: readonly string[]): Promise<void> {
    if (imeis.length === 0) return;
    const devices = new DeviceRepository(tx);
    const rows = await devices.lockByImeis(imeis);
    const named = imeis.map((imei, i) => {
      const device = rows.find((r) => r.imei === imei || r.imei2 === imei);
      if (!device) throw new AppError(404, 'DEVICE_NOT_FOUND', M.credits.deviceNotFound(imei), `imeis.${i}`);
      return device;
    });
    const elsewhere = named.filter((d) => d.creditReference !== null && d.creditReference.toLowerCase() !== reference.toLowerCase());
    const credits = await new CreditRepository(tx).referencesOf(elsewhere.map((d) => d.creditReference!));
    named.forEach((d, i) => {
      const other = d.creditReference === null ? undefined : credits.get(d.creditReference.toLowerCase());
      if (other !== undefined && other.toLowerCase() !== reference.toLowerCase()) {
        throw new AppError(409, 'DEVICE_OF_OTHER_CREDIT', M.credits.deviceOfOtherCredit(imeis[i]!, other), `imeis.${i}`);
      }
    });
    // A reference that names no credit (free text typed at registration) gives way to this one.
    const moving = [...new Map(named.filter((d) => d.creditReference?.toLowerCase() !== reference.toLowerCase()).map((d) => [d.id, d])).values()];
    if (moving.length === 0) return;
    await devices.setCreditReference(
      moving.map((d) => d.id),
      reference,
    );
    for (const d of moving) {
      await record(tx, {
        actor,
        entity: 'device',
        entityId: d.id,
        action: 'update',
        before: { creditReference: d.creditReference },
        after: { creditReference: reference },
      });
    }
  }

  /**
   * Registers a payment, applied oldest installment first. The same external id with the same
   * amount, date and source answers its first answer again (`replayed`); with other data, 409.
   */
  async registerPayment(
    actor: AuditActor,
    reference: string,
    body: PaymentBody,
    source: PaymentSource,
  ): Promise<{ replayed: boolean; result: PaymentResult }> {
    const now = this.now();
    if (body.paidAt.getTime() > now.getTime()) throw new AppError(400, 'VALIDATION', M.field.future(P.paidAt), 'paidAt');
    return transaction(this.db, async (tx) => {
      const repo = new CreditRepository(tx);
      const credit = await repo.lockByReference(reference);
      if (!credit) throw notFound();
      const existing = await repo.findPayment(credit.id, body.externalId);
      if (existing) {
        const same =
          existing.amount_cents === body.amount && new Date(existing.paid_at).getTime() === body.paidAt.getTime() && existing.source === source;
        if (!same) throw new AppError(409, 'PAYMENT_CONFLICT', M.credits.paymentConflict(body.externalId), 'externalId');
        return { replayed: true, result: paymentResultResponse.parse(existing.result) };
      }
      if (credit.cancelled_at !== null) throw new AppError(409, 'CREDIT_CANCELLED', M.credits.cancelled);
      const installments = (await repo.installments([credit.id])).get(credit.id)!;
      const today = this.today(now);
      const before = standingOf(credit, installments, today);
      const after = { ...credit, paid_cents: (await repo.activePaidCents(credit.id)) + body.amount };
      const standing = standingOf(after, installments, today);
      await repo.setDerived(credit.id, derivedOf(installments, after.paid_cents));
      await moveUnpaid(repo, unpaidOf(credit, installments), unpaidOf(after, installments));
      const result: PaymentResult = {
        payment: { externalId: body.externalId, amount: formatAmount(body.amount), paidAt: body.paidAt.toISOString(), source, reversedAt: null },
        credit: standingResponse(after, standing),
      };
      await repo.insertPayment({
        creditId: credit.id,
        externalId: body.externalId,
        amountCents: body.amount,
        paidAt: body.paidAt,
        source,
        recordedAt: now,
        recordedBy: actor.email,
        result,
      });
      await record(tx, { actor, entity: 'credit', entityId: credit.reference, action: 'register_payment', after: result });
      const outbox = new WebhooksRepository(tx);
      await outbox.enqueue('payment.applied', CREDIT_ORDER_KEY_BASE + credit.id, result, now);
      if (before.balanceCents > 0 && standing.balanceCents === 0)
        await outbox.enqueue('credit.paid_off', CREDIT_ORDER_KEY_BASE + credit.id, result, now);
      // The unlock (or release) the payment brings is a command before this answer is sent.
      await this.settings.collection?.reevaluateIn(tx, credit.id, now);
      return { replayed: false, result };
    });
  }

  /** Reverses a payment once: it is marked, never deleted, and the schedule is as before it. */
  async reversePayment(actor: AuditActor, reference: string, externalId: string): Promise<PaymentResult> {
    const now = this.now();
    return transaction(this.db, async (tx) => {
      const repo = new CreditRepository(tx);
      const credit = await repo.lockByReference(reference);
      if (!credit) throw notFound();
      const payment = await repo.findPayment(credit.id, externalId);
      if (!payment) throw new AppError(404, 'PAYMENT_NOT_FOUND', M.credits.paymentNotFound, 'externalId');
      if (payment.reversed_at !== null) throw new AppError(409, 'PAYMENT_ALREADY_REVERSED', M.credits.alreadyReversed(externalId), 'externalId');
      await repo.reversePayment(payment.id, now, actor.email);
      const installments = (await repo.installments([credit.id])).get(credit.id)!;
      const after = { ...credit, paid_cents: await repo.activePaidCents(credit.id) };
      await repo.setDerived(credit.id, derivedOf(installments, after.paid_cents));
      await moveUnpaid(repo, unpaidOf(credit, installments), unpaidOf(after, installments));
      const result: PaymentResult = {
        payment: paymentResponse({ ...payment, reversed_at: now }),
        credit: standingResponse(after, standingOf(after, installments, this.today(now))),
      };
      await record(tx, { actor, entity: 'credit', entityId: credit.reference, action: 'reverse_payment', after: result });
      await new WebhooksRepository(tx).enqueue('payment.reversed', CREDIT_ORDER_KEY_BASE + credit.id, result, now);
      await this.settings.collection?.reevaluateIn(tx, credit.id, now);
      return result;
    });
  }

  // The CSV imports ---------------------------------------------------------------------------

  /**
   * A schedules or payments file (creditCsv.ts), through the same writes as the API (`put`,
   * `registerPayment` with the source 'csv'), all in one transaction: each credit or payment in a
   * savepoint, so every row's refusal is collected. A preview, or a commit with any row in error,
   * rolls the whole transaction back: nothing is changed. A commit re-validates everything.
   */
  async importCsv(actor: AuditActor, kind: CreditImportKind, file: Uint8Array, mode: ImportQuery['mode']): Promise<CreditImportResult> {
    const read = kind === 'schedules' ? readScheduleCsv(file) : readPaymentCsv(file, this.settings.timeZone);
    const result: CreditImportResult = {
      mode,
      kind,
      encoding: read.encoding,
      ignoredColumns: read.ignoredColumns,
      rows: read.rows,
      invalid: [...read.invalid],
      schedules: [],
      created: 0,
      replaced: 0,
      payments: [],
      newPayments: 0,
      alreadyApplied: 0,
      applied: false,
    };
    const refused = (err: unknown): err is AppError => err instanceof AppError && err.status < 500;
    const rollBack = new Error('credit import: roll back');
    try {
      await transaction(this.db, async (tx) => {
        if ('groups' in read) {
          for (const g of read.groups) {
            try {
              const { created } = await this.put(actor, g.reference, g.body);
              result[created ? 'created' : 'replaced'] += 1;
              if (result.schedules.length < CREDIT_IMPORT_SHOWN) {
                const total = g.body.installments.reduce((sum, i) => sum + i.amount, 0);
                result.schedules.push({
                  reference: g.reference,
                  customerName: g.body.customerName,
                  currency: g.body.currency,
                  installments: g.body.installments.length,
                  total: formatAmount(total),
                  imeis: g.body.imeis,
                  outcome: created ? 'create' : 'replace',
                });
              }
            } catch (err) {
              if (!refused(err)) throw err;
              const imei = /^imeis\.(\d+)$/.exec(err.field ?? '');
              const line = imei ? (g.imeiLines.get(g.body.imeis[Number(imei[1])]!) ?? g.line) : g.line;
              result.invalid.push({ line, reference: g.reference, errors: [{ field: imei ? 'imeis' : 'referencia', message: err.message }] });
            }
          }
        } else {
          for (const p of read.payments) {
            try {
              const { replayed, result: paid } = await this.registerPayment(actor, p.reference, p.body, 'csv');
              result[replayed ? 'alreadyApplied' : 'newPayments'] += 1;
              if (result.payments.length < CREDIT_IMPORT_SHOWN) {
                result.payments.push({
                  line: p.line,
                  reference: p.reference,
                  externalId: p.body.externalId,
                  amount: formatAmount(p.body.amount),
                  currency: paid.credit.currency,
                  paidAt: p.body.paidAt.toISOString(),
                  outcome: replayed ? 'already_applied' : 'new',
                });
              }
            } catch (err) {
              if (!refused(err)) throw err;
              const field = err.field === 'externalId' ? 'id_externo' : err.field === 'paidAt' ? 'fecha_pago' : 'referencia';
              result.invalid.push({ line: p.line, reference: p.reference, errors: [{ field, message: err.message }] });
            }
          }
        }
        if (mode === 'preview' || result.invalid.length > 0) throw rollBack;
        await record(tx, {
          actor,
          entity: 'credit',
          action: 'import',
          after: { kind, created: result.created, replaced: result.replaced, payments: result.newPayments },
        });
        result.applied = true;
      });
    } catch (err) {
      if (err !== rollBack) throw err;
    }
    result.invalid.sort((a, b) => a.line - b.line);
    return result;
  }

  /** The template of an import. */
  importTemplate(kind: CreditImportKind): { fileName: string; content: string } {
    return { fileName: M.csvImport.templateFileName(kind), content: creditImportTemplate(kind) };
  }

  // Reads ------------------------------------------------------------------------------

  /** The integration's view of a credit, read with `q` (a transaction sees its own writes). */
  private async integrationView(q: Queryable, reference: string): Promise<IntegrationCredit> {
    const repo = new CreditRepository(q);
    const credit = await repo.findByReference(reference);
    if (!credit) throw notFound();
    // One after the other: `q` is often a transaction, one connection (pg deprecates queuing on it).
    const installments = await repo.installments([credit.id]);
    const payments = await repo.payments(credit.id);
    const devices = await new DeviceRepository(q).findByCreditReference(credit.reference, this.cutoff(), CREDIT_DEVICES_MAX);
    return integrationCredit(credit, installments.get(credit.id)!, payments, devices, this.today());
  }

  /** GET /api/integration/v1/credits/{reference} (audited as a lookup, as the integration's device reads are). */
  async lookup(actor: AuditActor, reference: string): Promise<IntegrationCredit> {
    const view = await this.integrationView(this.db, reference);
    await record(this.db, { actor, entity: 'credit', entityId: view.reference, action: 'lookup' });
    return view;
  }

  /** GET /v5/credits/:reference. */
  async detail(reference: string): Promise<CreditDetail> {
    const repo = new CreditRepository(this.db);
    const credit = await repo.findByReference(reference);
    if (!credit) throw notFound();
    const [installments, payments, devices] = await Promise.all([
      repo.installments([credit.id]),
      repo.payments(credit.id),
      new DeviceRepository(this.db).findByCreditReference(credit.reference, this.cutoff(), CREDIT_DEVICES_MAX),
    ]);
    const collection = new CollectionRepository(this.db);
    const [nextStep, steps, state] = await Promise.all([
      this.settings.collection ? this.settings.collection.nextStep(this.db, credit.reference) : null,
      collection.steps(credit.id, CREDIT_STEPS_SHOWN),
      collection.stateByReference(credit.reference),
    ]);
    const pausedUntil = state?.paused_until ? new Date(state.paused_until) : null;
    return {
      ...creditDetail(credit, installments.get(credit.id)!, payments, devices, this.today()),
      nextStep,
      steps: steps.map(stepResponse),
      pause: pausedUntil && pausedUntil > this.now() ? { until: pausedUntil.toISOString(), by: state!.paused_by, reason: state!.pause_reason } : null,
    };
  }

  /** GET /v5/devices/:id/credit: the credit whose reference the device carries, or null. */
  async ofDevice(deviceId: number): Promise<DeviceCredit> {
    const device = await new DeviceRepository(this.db).find(deviceId, this.cutoff());
    if (!device) throw new AppError(404, 'DEVICE_NOT_FOUND', INVENTORY_MESSAGES.devices.notFound);
    if (device.creditReference === null) return null;
    const repo = new CreditRepository(this.db);
    const credit = await repo.findByReference(device.creditReference);
    if (!credit) return null;
    const nextStep = this.settings.collection ? await this.settings.collection.nextStep(this.db, credit.reference) : null;
    return { ...rowResponse(credit, (await repo.installments([credit.id])).get(credit.id)!, this.today()), nextStep };
  }

  /** GET /v5/credits: a page of the portfolio on today's company date, and the exact total. */
  async list(q: CreditListQuery): Promise<CreditList> {
    const today = this.today();
    const filter = filterOf(q);
    const repo = new CreditRepository(this.db);
    const [rows, total] = await Promise.all([
      repo.list(filter, today, q.sort, q.order, q.perPage, (q.page - 1) * q.perPage, this.paymentDay(today)),
      repo.count(filter, today, this.paymentDay(today)),
    ]);
    const installments = await repo.installments(rows.map((r) => r.id));
    return { data: rows.map((r) => rowResponse(r, installments.get(r.id)!, today)), total };
  }

  /** GET /v5/credits/summary: the portfolio's figures today, each the total of the list filtered the matching way. */
  async summary(): Promise<CreditSummary> {
    const now = this.now();
    const today = this.today(now);
    const repo = new CreditRepository(this.db);
    const day = this.paymentDay(today);
    const [counts, dueThisWeek, overdue, payments] = await Promise.all([
      repo.dueCounts(today),
      repo.countDueThisWeek(today),
      repo.amountOverdue(today),
      repo.paymentsBetween(day.start, day.end),
    ]);
    return {
      today,
      timeZone: this.settings.timeZone,
      total: counts.total,
      byState: { current: counts.current, overdue: counts.overdue, paid_off: counts.paid_off, cancelled: counts.cancelled },
      overdueBuckets: counts.buckets,
      dueThisWeek,
      amountOverdue: overdue.map((o) => ({ currency: o.currency, amount: formatAmount(o.cents) })),
      paymentsToday: {
        count: payments.reduce((sum, p) => sum + p.count, 0),
        amounts: payments.map((p) => ({ currency: p.currency, amount: formatAmount(p.cents) })),
      },
    };
  }

  /**
   * GET /v5/credits/export: records the export (its own small transaction), then hands out the
   * whole filtered set in id order, CREDIT_EXPORT_BATCH credits per query, the figures of today
   * and the dates in `tz` (UTC without one).
   */
  async export(actor: AuditActor, q: CreditFilter, tz?: string): Promise<CsvDownload> {
    const filter = filterOf(q);
    const now = this.now();
    const today = this.today(now);
    await transaction(this.db, (tx) => record(tx, { actor, entity: 'credit', action: 'export', detail: JSON.stringify(filter) }));
    const repo = new CreditRepository(this.db);
    const paymentDay = this.paymentDay(today);
    const zone = csvZone(tz);
    async function* chunks(): AsyncGenerator<string> {
      yield UTF8_BOM + csvRow(zone.header(M.credits.csvColumns, EXPORT_DATE_TIME_COLUMNS));
      for (let after = 0; ;) {
        const batch = await repo.batch(filter, today, after, CREDIT_EXPORT_BATCH, paymentDay);
        const installments = await repo.installments(batch.map((c) => c.id));
        if (batch.length > 0) {
          yield batch
            .map((c) => {
              const row = rowResponse(c, installments.get(c.id)!, today);
              return csvRow([
                row.reference,
                row.customerName,
                row.currency,
                CREDIT_LABELS.states[row.state],
                row.daysOverdue,
                row.amountOverdue,
                row.nextDueDate,
                row.nextDueAmount,
                row.balance,
                row.total,
                row.paid,
                row.deviceCount,
                zone.instant(c.created_at),
              ]);
            })
            .join('');
        }
        if (batch.length < CREDIT_EXPORT_BATCH) return;
        after = batch[batch.length - 1]!.id;
      }
    }
    return { fileName: M.credits.exportFileName(today), chunks: chunks() };
  }
}
