/**
 * A credit's stored rows as the API answers them: its standing on the company's date, each
 * installment's paid part and state, amounts as decimal strings. Every figure comes from
 * shared/credits (allocate, standing), the same maths the browser has.
 */
import type { InstallmentState } from '../../shared/constants/creditLabels';
import type { CreditDevice, CreditDetail, CreditRow, CreditStanding, IntegrationCredit, Payment } from '../../shared/contracts/credits';
import type { Device } from '../../shared/contracts/devices';
import {
  allocate,
  compareInstallments,
  formatAmount,
  standing,
  type AllocatedInstallment,
  type Installment,
  type Standing,
} from '../../shared/credits';
import type { CreditDerived, CreditRecord, ListedCreditRecord, PaymentRecord } from './creditRepository';

/** The derived columns of a schedule with `paidCents` paid: its total and the due date of its first installment not fully paid. */
export function derivedOf(installments: readonly Installment[], paidCents: number): CreditDerived {
  const allocated = allocate(installments, paidCents).installments.sort(compareInstallments);
  return {
    totalCents: allocated.reduce((sum, i) => sum + i.amountCents, 0),
    paidCents,
    firstUnpaidDue: allocated.find((i) => i.paidCents < i.amountCents)?.dueDate ?? null,
  };
}

/** What a credit leaves unpaid per due date (nothing when cancelled: nothing is collected on it), payments covering the oldest first. */
export function unpaidByDue(installments: readonly Installment[], paidCents: number, cancelled: boolean): Map<string, number> {
  const unpaid = new Map<string, number>();
  if (cancelled) return unpaid;
  for (const i of allocate(installments, paidCents).installments) {
    if (i.paidCents < i.amountCents) unpaid.set(i.dueDate, (unpaid.get(i.dueDate) ?? 0) + i.amountCents - i.paidCents);
  }
  return unpaid;
}

/** Where a stored credit stands on `today` (the company's date). */
export const standingOf = (credit: CreditRecord, installments: readonly Installment[], today: string): Standing =>
  standing({ installments, paidCents: credit.paid_cents, cancelled: credit.cancelled_at !== null, today });

const amountOrNull = (cents: number | null) => (cents === null ? null : formatAmount(cents));

export function standingResponse(credit: Pick<CreditRecord, 'reference' | 'currency'>, s: Standing): CreditStanding {
  return {
    reference: credit.reference,
    currency: credit.currency,
    state: s.state,
    daysOverdue: s.daysOverdue,
    amountOverdue: formatAmount(s.amountOverdueCents),
    nextDueDate: s.nextDueDate,
    nextDueAmount: amountOrNull(s.nextDueAmountCents),
    total: formatAmount(s.totalCents),
    paid: formatAmount(s.paidCents),
    balance: formatAmount(s.balanceCents),
  };
}

/** A portfolio row (and a device's credit panel). */
export const rowResponse = (credit: ListedCreditRecord, installments: readonly Installment[], today: string): CreditRow => ({
  ...standingResponse(credit, standingOf(credit, installments, today)),
  customerName: credit.customer_name,
  deviceCount: credit.device_count,
});

/** An installment on `today`: fully paid; due before today and not fully paid; partly paid; nothing paid yet. */
export function installmentState(i: AllocatedInstallment, today: string): InstallmentState {
  if (i.paidCents >= i.amountCents) return 'paid';
  if (i.dueDate < today) return 'overdue';
  return i.paidCents > 0 ? 'partial' : 'pending';
}

export const paymentResponse = (p: PaymentRecord): Payment => ({
  externalId: p.external_id,
  amount: formatAmount(p.amount_cents),
  paidAt: new Date(p.paid_at).toISOString(),
  source: p.source,
  reversedAt: p.reversed_at === null ? null : new Date(p.reversed_at).toISOString(),
});

const deviceResponse = (d: Device): CreditDevice => ({ id: d.id, imei: d.imei, deviceType: d.deviceType, status: d.status });

/** GET /api/integration/v1/credits/{reference}. */
export function integrationCredit(
  credit: CreditRecord,
  installments: readonly Installment[],
  payments: readonly PaymentRecord[],
  devices: readonly Device[],
  today: string,
): IntegrationCredit {
  return {
    ...standingResponse(credit, standingOf(credit, installments, today)),
    customerName: credit.customer_name,
    customerPhone: credit.customer_phone,
    installments: allocate(installments, credit.paid_cents).installments.map((i) => ({
      number: i.number,
      dueDate: i.dueDate,
      amount: formatAmount(i.amountCents),
      paid: formatAmount(i.paidCents),
    })),
    payments: payments.map(paymentResponse),
    devices: devices.map(deviceResponse),
  };
}

/**
 * GET /v5/credits/:reference: the integration's view, each installment's state, who recorded and
 * reversed each payment (the collection policy's part is added by the service, which reads it).
 */
export function creditDetail(
  credit: CreditRecord,
  installments: readonly Installment[],
  payments: readonly PaymentRecord[],
  devices: readonly Device[],
  today: string,
): Omit<CreditDetail, 'nextStep' | 'steps' | 'pause'> {
  const allocated = allocate(installments, credit.paid_cents).installments;
  const view = integrationCredit(credit, installments, payments, devices, today);
  return {
    ...view,
    today,
    cancelled: credit.cancelled_at !== null,
    createdAt: new Date(credit.created_at).toISOString(),
    updatedAt: new Date(credit.updated_at).toISOString(),
    installments: view.installments.map((i, k) => ({ ...i, state: installmentState(allocated[k]!, today) })),
    payments: payments.map((p) => ({
      ...paymentResponse(p),
      recordedAt: new Date(p.recorded_at).toISOString(),
      recordedBy: p.recorded_by,
      reversedBy: p.reversed_by,
    })),
  };
}
